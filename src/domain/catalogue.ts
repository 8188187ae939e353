// The 'Forms & Requests' catalogue (employee-side §2, §3 'Catalogue entry', §9): the three forms that can be
// submitted from it, every other form type as 'coming-soon', and the search / category / sort rules.
import { type Category, FORM_TYPES, STAGES } from './forms.js';

export type Priority = 'high' | 'medium' | 'low';
export type CatalogueStatus = 'active' | 'coming-soon';

export interface CatalogueEntry {
  id: string;
  title: string;
  description: string;
  category: Category;
  /** lucide-react icon name. */
  icon: string;
  /** Tailwind text colour class of the icon. */
  color: string;
  /** Tailwind background class of the icon tile. */
  bgColor: string;
  status: CatalogueStatus;
  estimatedTime: string;
  requiredApprovals: readonly string[];
  keywords: readonly string[];
  formType: string;
  priority: Priority;
}

/** Priority ranking for sorting: high 3, medium 2, low 1. */
export const PRIORITY_RANK: Record<Priority, number> = { high: 3, medium: 2, low: 1 };

/** The category dropdown of the catalogue. */
export const CATALOGUE_CATEGORIES = ['All Forms', 'Human Resources', 'Finance', 'Information Technology', 'Facilities & Operations'] as const;
export type CatalogueCategory = (typeof CATALOGUE_CATEGORIES)[number];

export const CATALOGUE_SORTS = ['name', 'category', 'priority'] as const;
export type CatalogueSort = (typeof CATALOGUE_SORTS)[number];

const COLOURS: Record<Category, { color: string; bgColor: string }> = {
  'Human Resources': { color: 'text-violet-700', bgColor: 'bg-violet-50' },
  Finance: { color: 'text-emerald-700', bgColor: 'bg-emerald-50' },
  'Information Technology': { color: 'text-sky-700', bgColor: 'bg-sky-50' },
  'Facilities & Operations': { color: 'text-amber-700', bgColor: 'bg-amber-50' },
  Legal: { color: 'text-slate-700', bgColor: 'bg-slate-100' },
  Other: { color: 'text-gray-700', bgColor: 'bg-gray-100' },
};

/** The three forms the catalogue offers (ids, times and required approvals as the spec gives them). */
const ACTIVE: CatalogueEntry[] = [
  {
    id: 'FAC-AC-15',
    title: 'Facility Access Booking Form',
    description: 'Request a new access card, temporary access or extended access hours to company facilities.',
    category: 'Facilities & Operations',
    icon: 'Building2',
    ...COLOURS['Facilities & Operations'],
    status: 'active',
    estimatedTime: '5-10 min',
    requiredApprovals: ['Line Manager', 'Security Officer'],
    keywords: ['facility', 'access', 'access card', 'badge', 'building', 'after hours', 'booking', 'security'],
    formType: 'facility-access',
    priority: 'medium',
  },
  {
    id: 'IT-PWD-16',
    title: 'Password Reset Request Form',
    description: 'Ask the IT helpdesk to reset your password for Email, ERP, CRM, VPN or another system.',
    category: 'Information Technology',
    icon: 'LockKeyhole',
    ...COLOURS['Information Technology'],
    status: 'active',
    estimatedTime: '3-5 min',
    requiredApprovals: ['Line Manager', 'IT Helpdesk'],
    keywords: ['password', 'reset', 'locked', 'locked out', 'login', 'forgot', 'account', 'it'],
    formType: 'password-reset',
    priority: 'high',
  },
  {
    id: 'FIN-PR-08',
    title: 'Purchase Requisition Form',
    description: 'Request the purchase of goods or services, with quantity, unit cost and the purpose of the purchase.',
    category: 'Finance',
    icon: 'ShoppingCart',
    ...COLOURS.Finance,
    status: 'active',
    estimatedTime: '10-15 min',
    requiredApprovals: ['Department Head', 'Finance Officer'],
    keywords: ['purchase', 'requisition', 'buy', 'order', 'procurement', 'vendor', 'finance'],
    formType: 'purchase-requisition',
    priority: 'medium',
  },
];

/** Descriptions, times and priorities of the form types the catalogue lists as coming soon. */
const COMING_SOON: Record<string, { description: string; estimatedTime: string; priority: Priority }> = {
  'leave-request': { description: 'Apply for annual, sick, casual or other leave; working days are counted for you.', estimatedTime: '3-5 min', priority: 'high' },
  'travel-request': { description: 'Plan a business trip with destination, dates, purpose and estimated cost.', estimatedTime: '10-15 min', priority: 'medium' },
  'info-update': { description: 'Update your address, phone number, emergency contact or bank details on record.', estimatedTime: '3-5 min', priority: 'low' },
  'expense-reimbursement': { description: 'Claim back business expenses you paid yourself.', estimatedTime: '10-15 min', priority: 'medium' },
  'it-access': { description: 'Request new, changed or removed access to company systems.', estimatedTime: '5-10 min', priority: 'medium' },
  'employee-onboarding': { description: 'Prepare the start of a new hire: position, start date and equipment.', estimatedTime: '10-15 min', priority: 'medium' },
  'exit-clearance': { description: 'Start the clearance process before your last working day.', estimatedTime: '10-15 min', priority: 'low' },
  'petty-cash': { description: 'Request a small cash advance and settle it by an agreed date.', estimatedTime: '3-5 min', priority: 'medium' },
  'medical-claim': { description: 'Claim medical treatment costs covered by the company plan.', estimatedTime: '5-10 min', priority: 'medium' },
  'mileage-claim': { description: 'Claim the distance you drove your own vehicle on company business.', estimatedTime: '3-5 min', priority: 'low' },
  'it-incident': { description: 'Report a broken system, device or service to IT support.', estimatedTime: '3-5 min', priority: 'high' },
  'meeting-room': { description: 'Book a meeting room for a date and time slot.', estimatedTime: '2-3 min', priority: 'medium' },
  'transport-request': { description: 'Request a company cab or shuttle for a trip.', estimatedTime: '3-5 min', priority: 'low' },
  'maintenance-request': { description: 'Report something in the building that needs repair.', estimatedTime: '3-5 min', priority: 'medium' },
  'safety-incident': { description: 'Report an accident, injury or hazard at work.', estimatedTime: '5-10 min', priority: 'high' },
  'nda-request': { description: 'Request a non-disclosure agreement with another party.', estimatedTime: '5-10 min', priority: 'low' },
  'contract-approval': { description: 'Get a contract with a vendor or partner approved.', estimatedTime: '10-15 min', priority: 'medium' },
  'equipment-request': { description: 'Request a laptop, monitor, headset or other equipment.', estimatedTime: '5-10 min', priority: 'medium' },
  'training-request': { description: 'Request a training course, workshop or certification.', estimatedTime: '5-10 min', priority: 'low' },
  'event-participation': { description: 'Request to attend a conference, summit or other event.', estimatedTime: '5-10 min', priority: 'low' },
};

const CATEGORY_CODE: Record<Category, string> = {
  'Human Resources': 'HR',
  Finance: 'FIN',
  'Information Technology': 'IT',
  'Facilities & Operations': 'FAC',
  Legal: 'LEG',
  Other: 'GEN',
};

const ACTIVE_TYPES = new Set(ACTIVE.map((e) => e.formType));

/** Every catalogue entry: the three active forms first, then the other form types as coming soon. */
export const CATALOGUE: readonly CatalogueEntry[] = [
  ...ACTIVE,
  ...FORM_TYPES.filter((t) => !ACTIVE_TYPES.has(t.formType)).map((t, i): CatalogueEntry => {
    const extra = COMING_SOON[t.formType] ?? { description: `${t.title} form.`, estimatedTime: '5-10 min', priority: 'low' as Priority };
    return {
      id: `${CATEGORY_CODE[t.category]}-${t.idPrefix}-${String(i + 20).padStart(2, '0')}`,
      title: `${t.title} Form`,
      description: extra.description,
      category: t.category,
      icon: t.icon,
      ...COLOURS[t.category],
      status: 'coming-soon',
      estimatedTime: extra.estimatedTime,
      requiredApprovals: t.chain.map((s) => STAGES[s].label),
      keywords: t.keywords,
      formType: t.formType,
      priority: extra.priority,
    };
  }),
];

export function catalogueEntry(idOrFormType: string): CatalogueEntry | undefined {
  return CATALOGUE.find((e) => e.id === idOrFormType || e.formType === idOrFormType);
}

/** Whether an entry matches a search term (title, description or keywords, case-insensitive). */
export function matchesSearch(entry: CatalogueEntry, term: string): boolean {
  const q = term.trim().toLowerCase();
  if (q === '') return true;
  return (
    entry.title.toLowerCase().includes(q) ||
    entry.description.toLowerCase().includes(q) ||
    entry.keywords.some((k) => k.toLowerCase().includes(q))
  );
}

/** The entries shown for a search term and category: a non-blank search term overrides the category filter. */
export function filterCatalogue(entries: readonly CatalogueEntry[], search: string, category: CatalogueCategory | string): CatalogueEntry[] {
  if (search.trim() !== '') return entries.filter((e) => matchesSearch(e, search));
  if (category === 'All Forms' || category === '') return [...entries];
  return entries.filter((e) => e.category === category);
}

/** Sorted copy: by name (title), by category (then title) or by priority high > medium > low (then title). */
export function sortCatalogue(entries: readonly CatalogueEntry[], by: CatalogueSort): CatalogueEntry[] {
  const byTitle = (a: CatalogueEntry, b: CatalogueEntry) => a.title.localeCompare(b.title);
  const sorted = [...entries];
  if (by === 'name') sorted.sort(byTitle);
  else if (by === 'category') sorted.sort((a, b) => a.category.localeCompare(b.category) || byTitle(a, b));
  else sorted.sort((a, b) => PRIORITY_RANK[b.priority] - PRIORITY_RANK[a.priority] || byTitle(a, b));
  return sorted;
}
