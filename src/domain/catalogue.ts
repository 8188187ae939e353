// The 'Forms & Requests' catalogue, built from the form registry (forms.ts): its entries (title, description,
// category, priority, estimated time, required approvals, keywords), the three forms of the spec (Facility Access
// FAC-AC-15, Password Reset IT-PWD-16, Purchase Requisition FIN-PR-08) with their spec texts, every other form
// type (each can be submitted from the web), and the search / category / sort rules.
import { type Category, type CataloguePriority, FORM_TYPES, type FormTypeDef, chainInWords } from './forms.js';

export type Priority = CataloguePriority;
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
  /** 'Approvals required' as the catalogue shows it (the spec's texts for its three forms). */
  requiredApprovals: readonly string[];
  /**
   * Who really decides, in order, from the registry chain (STAGES labels). Differs from requiredApprovals for the
   * spec's three forms, whose spec text names other approvers (see the README).
   */
  approvalChain: readonly string[];
  keywords: readonly string[];
  formType: string;
  priority: Priority;
}

/** Priority ranking for sorting: high 3, medium 2, low 1. */
export const PRIORITY_RANK: Record<Priority, number> = { high: 3, medium: 2, low: 1 };

/** The category dropdown of the catalogue. */
export const CATALOGUE_CATEGORIES = [
  'All Forms',
  'Human Resources',
  'Finance',
  'Information Technology',
  'Facilities & Operations',
] as const;
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

const CATEGORY_CODE: Record<Category, string> = {
  'Human Resources': 'HR',
  Finance: 'FIN',
  'Information Technology': 'IT',
  'Facilities & Operations': 'FAC',
  Legal: 'LEG',
  Other: 'GEN',
};

/**
 * The catalogue entry of a registered type. The spec's three forms keep the spec's id, title, keywords and
 * 'approvals required' texts (which name approvers other than the real deciders: README); every other type says
 * its real chain in the product's words and gets an id from its category and request-id prefix.
 */
function entryOf(t: FormTypeDef, number: number): CatalogueEntry {
  const spec = t.catalogue.spec;
  return {
    id: spec?.id ?? `${CATEGORY_CODE[t.category]}-${t.idPrefix}-${String(number).padStart(2, '0')}`,
    title: spec?.title ?? `${t.title} Form`,
    description: t.catalogue.description,
    category: t.category,
    icon: t.icon,
    ...COLOURS[t.category],
    status: 'active',
    estimatedTime: t.catalogue.estimatedTime,
    requiredApprovals: spec?.requiredApprovals ?? chainInWords(t.formType),
    approvalChain: chainInWords(t.formType),
    keywords: spec?.keywords ?? t.keywords,
    formType: t.formType,
    priority: t.catalogue.priority,
  };
}

/**
 * Every catalogue entry of the registry as it is now: the spec's three forms first (in the spec's order), then the
 * others; a type an administrator disabled is left out. The registry can change at run time (types as data, issue
 * 20: the server reloads it, the web puts in the types GET /api/form-types answers), so this is computed per call.
 */
export function catalogueEntries(): CatalogueEntry[] {
  const enabled = FORM_TYPES.filter((t) => t.enabled !== false);
  return [
    ...enabled
      .filter((t) => t.catalogue.spec)
      .sort((a, b) => a.catalogue.spec!.position - b.catalogue.spec!.position)
      .map((t) => entryOf(t, 0)),
    ...FORM_TYPES.filter((t) => !t.catalogue.spec)
      .map((t, i) => ({ t, n: i + 20 }))
      .filter(({ t }) => t.enabled !== false)
      .map(({ t, n }) => entryOf(t, n)),
  ];
}

/** The catalogue of the registry the code ships (the 23 types). */
export const CATALOGUE: readonly CatalogueEntry[] = catalogueEntries();

export function catalogueEntry(idOrFormType: string): CatalogueEntry | undefined {
  return catalogueEntries().find((e) => e.id === idOrFormType || e.formType === idOrFormType);
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

/** The entries shown for a search term and category (a CatalogueCategory): a non-blank search term overrides the category filter. */
export function filterCatalogue(entries: readonly CatalogueEntry[], search: string, category: string): CatalogueEntry[] {
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
