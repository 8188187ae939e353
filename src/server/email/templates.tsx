// The e-mails' templates (react-email): a decision on the recipient's request, an item waiting for the recipient
// with Approve / Reject links, and the daily digest. Each renders to HTML (600 px wide at most, one column, so
// narrow phone clients and wide desktop ones show it whole) and to a plain-text alternative from the same markup.
import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import { render } from '@react-email/render';
import type { DecisionFacts, RequestFacts } from './content.js';

export interface ActionUrls {
  approve: string;
  reject: string;
  /** 'until 27 Nov 2026' */
  validity: string;
}

export interface DecisionMail {
  kind: 'decision';
  firstName: string;
  subject: string;
  request: RequestFacts;
  /** The decision of a stage; null when the e-mail is about the request's status (an IT ticket's, say). */
  decision: DecisionFacts | null;
  /** For a status change, when there is no stage decision: 'Status changed from Open to Resolved'. */
  statusChange: string | null;
  requestUrl: string;
}

export interface WaitingMail {
  kind: 'waiting';
  firstName: string;
  subject: string;
  request: RequestFacts;
  stageLabel: string;
  /** The owner changed the request while it waited: look again. */
  changedByOwner: boolean;
  requestUrl: string;
  actions: ActionUrls | null;
}

export interface DigestItem {
  title: string;
  request: RequestFacts;
  requestUrl: string;
  /** For a decision on the recipient's request. */
  decision: DecisionFacts | null;
  /** For an item waiting for the recipient. */
  stageLabel: string | null;
  actions: ActionUrls | null;
}

export interface DigestMail {
  kind: 'digest';
  firstName: string;
  subject: string;
  date: string;
  items: DigestItem[];
  settingsUrl: string;
}

export type MailModel = DecisionMail | WaitingMail | DigestMail;

const font = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';
const s = {
  body: { backgroundColor: '#f3f4f6', fontFamily: font, margin: 0, padding: '24px 0' },
  container: { backgroundColor: '#ffffff', border: '1px solid #e5e7eb', borderRadius: 8, maxWidth: 600, width: '100%', padding: '24px' },
  brand: { color: '#4f46e5', fontSize: 14, fontWeight: 700, margin: '0 0 16px' },
  h1: { color: '#111827', fontSize: 20, lineHeight: '28px', margin: '0 0 12px' },
  p: { color: '#374151', fontSize: 15, lineHeight: '22px', margin: '0 0 12px' },
  facts: { backgroundColor: '#f9fafb', border: '1px solid #e5e7eb', borderRadius: 6, padding: '12px 16px', margin: '0 0 16px' },
  fact: { color: '#374151', fontSize: 14, lineHeight: '20px', margin: '0 0 4px', wordBreak: 'break-word' as const },
  reason: {
    backgroundColor: '#fef2f2',
    borderLeft: '4px solid #dc2626',
    color: '#7f1d1d',
    fontSize: 15,
    lineHeight: '22px',
    margin: '0 0 16px',
    padding: '8px 12px',
  },
  approve: {
    backgroundColor: '#16a34a',
    borderRadius: 6,
    color: '#ffffff',
    fontSize: 15,
    fontWeight: 600,
    padding: '10px 18px',
    margin: '0 8px 8px 0',
  },
  reject: {
    backgroundColor: '#dc2626',
    borderRadius: 6,
    color: '#ffffff',
    fontSize: 15,
    fontWeight: 600,
    padding: '10px 18px',
    margin: '0 8px 8px 0',
  },
  open: {
    backgroundColor: '#4f46e5',
    borderRadius: 6,
    color: '#ffffff',
    fontSize: 15,
    fontWeight: 600,
    padding: '10px 18px',
    margin: '0 0 8px',
  },
  small: { color: '#6b7280', fontSize: 12, lineHeight: '18px', margin: '0 0 8px' },
  link: { color: '#4f46e5', wordBreak: 'break-all' as const },
};

/** The frame of every e-mail: the subject as its heading and the greeting, then the e-mail's own content. */
function Layout({ subject, firstName, children }: { subject: string; firstName: string; children: React.ReactNode }) {
  return (
    <Html lang="en">
      <Head />
      <Preview>{subject}</Preview>
      <Body style={s.body}>
        <Container style={s.container}>
          <Text style={s.brand}>AdminEase</Text>
          <Heading as="h1" style={s.h1}>
            {subject}
          </Heading>
          <Text style={s.p}>Hello {firstName},</Text>
          {children}
          <Hr style={{ borderColor: '#e5e7eb', margin: '20px 0 12px' }} />
          <Text style={s.small}>
            You get this e-mail because of your e-mail settings in AdminEase (Settings, in the header of your dashboard).
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

function Facts({ request }: { request: RequestFacts }) {
  return (
    <Section style={s.facts}>
      <Text style={s.fact}>
        <strong>Request:</strong> {request.type_label} {request.request_id}
      </Text>
      <Text style={s.fact}>
        <strong>Requested by:</strong> {request.employee_name}
      </Text>
      {request.amount && (
        <Text style={s.fact}>
          <strong>Amount:</strong> {request.amount}
        </Text>
      )}
      {request.dates && (
        <Text style={s.fact}>
          <strong>{request.dates.label}:</strong> {request.dates.text}
        </Text>
      )}
      {request.purpose && (
        <Text style={s.fact}>
          <strong>Purpose:</strong> {request.purpose}
        </Text>
      )}
      <Text style={s.fact}>
        <strong>Status:</strong> {request.status}
      </Text>
    </Section>
  );
}

/** 'Rejected by Priya Sharma on behalf of Daniel Roy (Line Manager Approval)' */
export function decisionLine(d: DecisionFacts): string {
  const who = d.decided_by ? ` by ${d.decided_by}` : '';
  const behalf = d.on_behalf_of ? ` on behalf of ${d.on_behalf_of}` : '';
  return `${d.decision}${who}${behalf} (${d.stage_label})${d.via_email ? ', decided from e-mail' : ''}`;
}

function Decision({ d }: { d: DecisionFacts }) {
  return (
    <>
      <Text style={s.p}>
        <strong>Decision:</strong> {decisionLine(d)}
      </Text>
      {d.reason && (
        <Text style={s.reason}>
          <strong>Reason:</strong> {d.reason}
        </Text>
      )}
      {d.comments && (
        <Text style={s.p}>
          <strong>Comments:</strong> {d.comments}
        </Text>
      )}
    </>
  );
}

function Actions({ actions }: { actions: ActionUrls }) {
  return (
    <Section style={{ margin: '4px 0 8px' }}>
      <Button href={actions.approve} style={s.approve}>
        Approve
      </Button>{' '}
      <Button href={actions.reject} style={s.reject}>
        Reject
      </Button>
      <Text style={s.small}>
        Each button opens a page where you confirm (a rejection asks for the reason). The buttons work once, for you only,{' '}
        {actions.validity}.
      </Text>
    </Section>
  );
}

function DecisionEmail(m: DecisionMail) {
  const r = m.request;
  return (
    <Layout subject={m.subject} firstName={m.firstName}>
      <Text style={s.p}>
        There is a decision on your {r.type_label} {r.request_id}.
      </Text>
      {m.decision && <Decision d={m.decision} />}
      {!m.decision && m.statusChange && (
        <Text style={s.p}>
          <strong>{m.statusChange}</strong>
        </Text>
      )}
      <Facts request={r} />
      <Button href={m.requestUrl} style={s.open}>
        Open the request
      </Button>
      <Text style={s.small}>
        Or open this address:{' '}
        <Link href={m.requestUrl} style={s.link}>
          {m.requestUrl}
        </Link>
      </Text>
    </Layout>
  );
}

function WaitingEmail(m: WaitingMail) {
  const r = m.request;
  return (
    <Layout subject={m.subject} firstName={m.firstName}>
      <Text style={s.p}>
        {m.changedByOwner
          ? `${r.employee_name} changed their ${r.type_label} ${r.request_id}, which waits for your ${m.stageLabel}. Please look at it again before you decide.`
          : `${r.employee_name}'s ${r.type_label} ${r.request_id} waits for your decision (${m.stageLabel}).`}
      </Text>
      <Facts request={r} />
      {m.actions && <Actions actions={m.actions} />}
      <Text style={s.p}>
        <Link href={m.requestUrl} style={s.link}>
          Open the request in AdminEase
        </Link>
      </Text>
    </Layout>
  );
}

function DigestEmail(m: DigestMail) {
  return (
    <Layout subject={m.subject} firstName={m.firstName}>
      <Text style={s.p}>{m.items.length === 1 ? 'One update' : `${m.items.length} updates`} since your last digest:</Text>
      {m.items.map((item, i) => (
        <Section key={i} style={{ margin: '0 0 12px' }}>
          <Heading as="h2" style={{ ...s.h1, fontSize: 16, lineHeight: '22px', margin: '8px 0' }}>
            {item.title}
          </Heading>
          {item.decision && <Decision d={item.decision} />}
          {item.stageLabel && <Text style={s.p}>Waiting for your decision ({item.stageLabel}).</Text>}
          <Facts request={item.request} />
          {item.actions && <Actions actions={item.actions} />}
          <Text style={s.p}>
            <Link href={item.requestUrl} style={s.link}>
              Open {item.request.type_label} {item.request.request_id}
            </Link>
          </Text>
        </Section>
      ))}
      <Text style={s.small}>
        You chose one daily digest instead of an e-mail for each item. Change it in{' '}
        <Link href={m.settingsUrl} style={s.link}>
          your settings
        </Link>
        .
      </Text>
    </Layout>
  );
}

function element(m: MailModel) {
  if (m.kind === 'decision') return <DecisionEmail {...m} />;
  if (m.kind === 'waiting') return <WaitingEmail {...m} />;
  return <DigestEmail {...m} />;
}

/** The plain-text part: headings as written (not upper-cased), links as 'text <url>' from react-email's defaults. */
const TEXT_OPTIONS = {
  selectors: [
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'img', format: 'skip' },
    { selector: '[data-skip-in-text=true]', format: 'skip' },
    { selector: 'a', options: { linkBrackets: false as const } },
  ],
};

/** The subject, HTML and plain-text parts of an e-mail. */
export async function renderMail(m: MailModel): Promise<{ subject: string; html: string; text: string }> {
  const el = element(m);
  const [html, text] = await Promise.all([render(el), render(el, { plainText: true, htmlToTextOptions: TEXT_OPTIONS })]);
  return { subject: m.subject, html, text };
}
