// Intent understanding: the trained NLU's classification combined with a few unambiguous patterns
// (a command verb before a request id, 'cancel my ... request', status and balance questions) and
// form-type cues. Answers one intent (and the form type when the user wants to submit something).
import { FORM_TYPES, FORM_TYPE_IDS, formTypeDef } from '../../../domain/forms.js';
import { INCIDENT_SYSTEM_WORDS } from '../corpus/entities.js';
import { classify, type NluResult } from './nlu.js';

const SYSTEM_WORDS = Object.values(INCIDENT_SYSTEM_WORDS)
  .flat()
  .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  .join('|');

export type Intent =
  | 'greet'
  | 'help'
  | 'thanks'
  | 'bye'
  | 'identity'
  | 'leave.balance'
  | 'requests.status'
  | 'holiday.info'
  | 'request.withdraw'
  | 'approvals.queue'
  | 'approvals.details'
  | 'approvals.approve'
  | 'approvals.reject'
  | 'form'
  | 'unknown';

export interface Understanding {
  intent: Intent;
  /** 'rule': an unambiguous pattern; 'cue': form-type words; 'nlu': the classifier alone. */
  source: 'rule' | 'cue' | 'nlu' | 'none';
  formType?: string;
  score: number;
  nlu?: NluResult;
  /** Candidate form types with their scores, best first (for follow-up questions). */
  formScores: Array<{ formType: string; score: number }>;
}

const LEAVE_TAKING =
  /\b(take|taking|book|booking|apply|applying|request|requesting|go on|going on|want|need|plan|planning|put in|have)\b[^.?!]{0,30}\b(leave|holiday|vacation|off|pto)\b/;

/** Words that may follow a clear yes in a confirmation ('yes, go ahead and submit it please'). */
const CONFIRM_WORDS = new Set(
  (
    'y yes yeah yep yup ya sure ok okay alright all right confirm confirmed submit approve reject decline withdraw proceed ' +
    "absolutely definitely of course affirmative lgtm please do it go ahead for that that's thats this one the my " +
    'request leave booking book room meeting ticket claim trip form send file raise and now thanks thank you ' +
    "right away correct looks look sounds good great fine perfect is it's its let's lets just i want to would like " +
    "you can on with thing everything exactly indeed true sir ma'am"
  ).split(' '),
);

/**
 * An explicit yes / confirm answer ('yes', 'yes, submit it', 'sure, go ahead and book it', 'looks good'): a yes
 * word followed by nothing but more confirmation words. A message that merely starts with 'ok' and goes on about
 * something else ('ok, tell me more about it before I approve it'), a question, or one that names the opposite
 * decision ('reject' for an approval) is not a confirmation.
 */
export function isAffirmative(lower: string, about: { action?: 'approve' | 'reject'; requestId?: string } = {}): boolean {
  const { action, requestId } = about;
  if (lower.includes('?')) return false;
  // a yes that names other requests ('approve LR-000002' while LR-000001 is asked about) is not this one's yes
  if (requestId) {
    const named = [...lower.matchAll(/\b([a-z]{2,4})\s?-\s?(\d{1,9})\b/g)].map(
      (m) => `${m[1].toUpperCase()}-${m[2].length < 6 ? m[2].padStart(6, '0') : m[2]}`,
    );
    if (named.length > 0 && !named.includes(requestId.toUpperCase())) return false;
  }
  const s = lower
    .replace(/\b[a-z]{2,4}\s?-\s?\d{1,9}\b/g, ' ')
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!s) return false;
  if (/\b(no|not|don't|dont|cancel|stop|wait|never|nope|nah|abort|change|instead|but)\b/.test(s)) return false;
  if (action === 'approve' && /\b(reject|decline|deny)\b/.test(s)) return false;
  if (action === 'reject' && /\b(approve|accept)\b/.test(s)) return false;
  if (
    /^(y|yes|yeah|yep|yup|ya|sure|ok|okay|alright|all right|confirm|confirmed|submit|approve|reject|proceed|absolutely|definitely|of course|affirmative|lgtm|please do|do it|go ahead|go for it)\b/.test(
      s,
    )
  ) {
    return s.split(' ').every((w) => CONFIRM_WORDS.has(w));
  }
  // milder words only as the whole reply ('perfect', 'that's right', 'sounds good')
  return (
    /^((that'?s|that is|it'?s|looks|sounds|seems) )?(perfect|great|good|fine|correct|right|ok|okay|all good)( thanks| thank you| please)?$/.test(
      s,
    ) || /^(send it|send|submit it|book it|file it|do that|please|yes please|please submit|please proceed)$/.test(s)
  );
}

/** No / cancel words as a whole reply ('no', 'no, cancel that', 'never mind'). */
export function isNegative(lower: string): boolean {
  const s = lower
    .replace(/[^a-z' ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (
    /^(n|no|nope|nah|not now|no thanks|no thank you|cancel|cancel it|cancel that|stop|abort|never mind|nevermind|forget it|forget about it|don't|dont|do not|leave it|scrap that|skip it|quit|exit)\b/.test(
      s,
    ) ||
    /^(please )?(cancel|stop|abort)( (it|that|this|the request|everything))?$/.test(s) ||
    /\b(don'?t|do not) (submit|send|book|do|proceed|file|raise|approve|reject|withdraw)\b|\b(cancel|abort|scrap|drop|forget) (it|that|this)\b|\bchanged my mind\b/.test(
      s,
    )
  );
}

const ID_RE = /\b[A-Za-z]{2,4}\s?-\s?\d{1,9}\b/;

/** Form-type cues: [form type, pattern, weight]. Checked on the corrected lower-case text. */
const FORM_CUES: Array<[string, RegExp, number]> = [
  [
    'password-reset',
    /\bpassword\b|\bpasscode\b|\blocked out\b|\b(account|login|log in|user) (is |got |has been )?(locked|blocked|disabled|suspended)\b|\bunlock my\b|\bforgot (my )?(login|username|credentials)\b|\bcan'?t (log|sign) ?in\b|\breset my\b/,
    3,
  ],
  ['petty-cash', /\bpetty\b|\bcash advance\b|\b(need|want|get|request)\b[^.]{0,20}\bcash\b/, 3],
  // 'pc 20 usd': PC (petty cash's id prefix) with an amount of money; 'my pc' alone stays a computer.
  ['petty-cash', /\bpc\s+(\$\s*\d[\d.,]*|\d[\d.,]*\s*(usd|dollars?|bucks|\$))/, 3],
  [
    'purchase-requisition',
    /\bpurchase requisition|\brequisition\b|\bpurchase order\b|\bprocure(ment)?\b|\b(raise|create|submit|open|file|new) (a |an )?(pr|po)\b/,
    3.5,
  ],
  [
    'purchase-requisition',
    /\b(buy|purchase|order)\b[^.]{0,40}\b\d+\b|\b\d+\b[^.]{0,30}(\bat|@)\s*(\$|usd\s*)?\d[\d.,]*\s*(dollars?|usd|bucks)?\s*(each|apiece|per|a piece)\b/,
    2.6,
  ],
  ['leave-request', /\b(annual|sick|casual|unpaid|maternity|paternity|bereavement|compensatory|medical) leave\b/, 4],
  [
    'leave-request',
    /\bleave (request|application|from|on|for|next|this|tomorrow|today)\b|\b(apply|applying|request|book|take|need|want) (for )?(some )?leave\b|\b(day|days|week|weeks|time|morning|afternoon) off\b|\b(off|out of office|ooo) (on|from|next|this|tomorrow|today)\b|\bvacation\b|\bpto\b|\b(off sick|call(ing)? in sick|i'?m sick|feeling (sick|unwell|ill)|unwell)\b/,
    3,
  ],
  ['leave-request', /\btake\b[^.]{0,25}\boff\b|\bleave\b(?! (the company|it|that|this|a message|feedback|early))|\bholiday\b/, 1.5],
  [
    'meeting-room',
    /\b(meeting|conference|board|huddle|training|discussion|interview|seminar) ?room\b|\bboardroom\b|\b(book|reserve|need|get|find)\b[^.]{0,12}\b(a |the )?room\b|\broom (booking|reservation)\b|\bmeeting space\b/,
    3,
  ],
  ['travel-request', /\b(travel|travelling|traveling|trip|fly|flying|flight|flights|business trip)\b/, 3],
  [
    'travel-request',
    /\b(go|going|head|heading)\s+to\s+[a-z]+[^.]{0,60}\b(come back|coming back|return|returning|back on)\b|\b(visit|visiting) (the )?(client|customer|supplier|partner|site|office) in\b/,
    2.6,
  ],
  [
    'it-incident',
    /\b(not working|doesn'?t work|does not work|won'?t (work|connect|start|turn on|open|load|print|boot|sync)|can'?t (connect|access|open|print|reach|load)|cannot (connect|access|open|print)|broken|crash(es|ed|ing)?|freez(es|ing)|error|errors|slow|is down|are down|keeps? (disconnecting|dropping|crashing|freezing|restarting)|issue with|problem with|stopped working|no sound|blue screen|bug|glitch|disconnect(s|ing)?|not (loading|syncing|printing|connecting|responding)|it (issue|problem|ticket|incident)|technical (issue|problem)|flicker\w*|jammed|not turning on|won'?t turn on|dead pixels?)\b/,
    2.5,
  ],
  [
    'facility-access',
    /\baccess card\b|\b(id )?badge\b|\bbuilding access\b|\bfacility access\b|\baccess to the (building|office|lab|floor|server room|warehouse|premises|site|gym|parking|car park)\b|\b(after hours|after-hours|weekend) access\b|\bextended (access )?hours\b/,
    3,
  ],
  [
    'it-access',
    /\b(access|permissions?|rights|login) (to|for|on) (the )?(crm|erp|vpn|jira|salesforce|sap|system|database|repository|repo|shared drive|drive|tool|application|app|server)\b|\badmin rights\b|\b(read|write) access\b/,
    2.5,
  ],
  [
    'equipment-request',
    /\b(need|want|request|get|order|requesting)\b[^.]{0,20}\b(new|second|extra|another|replacement|additional|spare)\s+(monitor|screen|headset|keyboard|mouse|laptop|docking station|dock|chair|webcam|phone|desk|charger)s?\b|\bequipment\b/,
    2.5,
  ],
  ['expense-reimbursement', /\bexpenses?\b|\breimburse(ment|d)?\b|\bclaim (back|my|for)\b/, 2],
  [
    'medical-claim',
    /\b(medical|doctor|hospital|dental|dentist|pharmacy|clinic|physio\w*)\b[^.]{0,30}\b(claim|bill|reimburse\w*|costs?)\b|\bmedical claim\b/,
    3,
  ],
  ['mileage-claim', /\bmileage\b|\b(drove|driving|drive)\b[^.]{0,30}\b(km|kilomet\w+|miles)\b|\b\d+\s*(km|kilomet\w+|miles)\b/, 3],
  ['training-request', /\b(training|course|certification|certificate|workshop|bootcamp|class)\b/, 2],
  ['event-participation', /\b(conference|summit|expo|meetup|trade show|event)\b/, 1.8],
  ['transport-request', /\b(cab|taxi|shuttle|pick ?up|pick me up|drop me|transport|car to (the )?(airport|station|hotel|office))\b/, 3],
  [
    'maintenance-request',
    /\b(leak|leaking|air ?con\w*|air conditioning|heating|heater|light|lights|bulb|door|window|toilet|plumbing|repair|maintenance|flickering|ceiling|tap|sink|lift|elevator)\b[^.]{0,40}\b(broken|not working|leak\w*|flicker\w*|blocked|stuck|fix|repair|damaged|cold|hot|noisy)\b|\bmaintenance\b|\b(fix|repair) the\b/,
    2.6,
  ],
  [
    'safety-incident',
    /\bsafety\b|\baccident\b|\binjur\w*\b|\bslipped\b|\bhazard\w*\b|\bfire extinguisher\b|\bnear miss\b|\bfell (down|over)\b/,
    3,
  ],
  ['nda-request', /\bnda\b|\bnon-?disclosure\b|\bconfidentiality agreement\b/, 4],
  ['contract-approval', /\bcontract\b|\bservice agreement\b|\bvendor agreement\b/, 3],
  ['employee-onboarding', /\bonboard(ing)?\b|\bnew hire\b|\bnew joiner\b|\bnew (employee|starter|team member)\b/, 3],
  [
    'exit-clearance',
    /\bresign\w*\b|\bexit clearance\b|\blast working day\b|\bleaving the company\b|\bhanded in my notice\b|\bnotice period\b/,
    3.5,
  ],
  [
    'info-update',
    /\b(update|change|correct|modify)\b[^.]{0,15}\b(my )?(address|phone|mobile|number|bank|emergency contact|name|marital status|personal (details|info\w*)|contact details|info)\b|\bmoved house\b|\bnew (address|phone|mobile|bank account)\b|\bupdate info\b/,
    3,
  ],
];

/**
 * The part of a request before its reason: 'I need a day off next friday for a trip to Goa' asks for leave,
 * whatever the trip. Cut at the first 'for / because / due to' that starts a phrase.
 */
export function beforeReason(lower: string): string {
  const m = /\s(?:for|because|due to|since|as i|so that|so i can)\s+(?:a|an|the|my|our|some|his|her|their|\w+ing)\b|,\s/.exec(lower);
  return m ? lower.slice(0, m.index) : lower;
}

/** Scores per form type from the cues and the NLU; the cues of the request itself weigh before those of its reason. */
export function formScores(lower: string, nlu?: NluResult): Array<{ formType: string; score: number }> {
  const head = beforeReason(lower);
  if (head !== lower) {
    const primary = cueScores(head, undefined);
    if (primary.length > 0 && primary[0].score >= 1.5) {
      // the reason's cues still count a little (a tie is decided by the request itself)
      const full = cueScores(lower, nlu);
      const merged = new Map(full.map((x) => [x.formType, x.score * 0.25]));
      for (const x of primary) merged.set(x.formType, (merged.get(x.formType) ?? 0) + x.score);
      return [...merged.entries()].map(([formType, score]) => ({ formType, score })).sort((a, b) => b.score - a.score);
    }
  }
  return cueScores(lower, nlu);
}

function cueScores(lower: string, nlu?: NluResult): Array<{ formType: string; score: number }> {
  const scores = new Map<string, number>();
  for (const [ft, re, w] of FORM_CUES) if (re.test(lower)) scores.set(ft, Math.max(scores.get(ft) ?? 0, w));
  // Types an administrator defined (issue 20) are known by their title and keywords.
  for (const t of FORM_TYPES) {
    if (!t.custom) continue;
    const w = phraseIn(lower, t.title.toLowerCase()) ? 3.5 : t.keywords.some((k) => phraseIn(lower, k)) ? 3 : 0;
    if (w) scores.set(t.formType, Math.max(scores.get(t.formType) ?? 0, w));
  }
  // problems with a password are password resets, not incidents; a new device is equipment, a broken one an incident
  // a problem with a named system is an incident, even when it mentions where ('wifi keeps dropping in the meeting rooms')
  if (scores.has('it-incident') && new RegExp(`\\b(${SYSTEM_WORDS})\\b`).test(lower))
    scores.set('it-incident', (scores.get('it-incident') ?? 0) + 1);
  if (scores.has('password-reset') && scores.has('it-incident') && /\bpassword|locked|unlock|forgot/.test(lower))
    scores.set('it-incident', 1);
  if (scores.has('equipment-request') && scores.has('it-incident'))
    scores.set('equipment-request', (scores.get('equipment-request') ?? 0) - 1);
  if (scores.has('medical-claim') || scores.has('mileage-claim')) scores.set('expense-reimbursement', 1);
  if (scores.has('meeting-room') && scores.has('maintenance-request') && !/\b(broken|leak|flicker|not working|fix|repair)/.test(lower))
    scores.delete('maintenance-request');
  if (
    scores.has('travel-request') &&
    scores.has('transport-request') &&
    /\b(airport|taxi|cab)\b/.test(lower) &&
    !/\btrip|travel to|fly/.test(lower)
  )
    scores.set('travel-request', 1);
  for (const c of nlu?.classifications ?? []) {
    if (!c.intent.startsWith('form.')) continue;
    const ft = c.intent.slice(5);
    if (!FORM_TYPE_IDS.includes(ft)) continue;
    scores.set(ft, (scores.get(ft) ?? 0) + c.score * 1.2);
  }
  // A type an administrator disabled takes no new requests.
  for (const ft of [...scores.keys()]) if (formTypeDef(ft)?.enabled === false) scores.delete(ft);
  return [...scores.entries()].map(([formType, score]) => ({ formType, score })).sort((a, b) => b.score - a.score);
}

/** Does `phrase` occur in `lower` as whole words? */
function phraseIn(lower: string, phrase: string): boolean {
  const p = phrase.trim();
  if (p.length < 3) return false;
  return new RegExp(`(^|[^a-z0-9])${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}s?([^a-z0-9]|$)`).test(lower);
}

const APPROVE_CMD =
  /^(?:(?:please|pls|kindly|ok|okay|yes|yeah|then|now|and|so|do|go ahead and|can you|could you|would you|i'?d like to|i want to|i would like to|let'?s|lets|i)\s+)*(approve|accept|sign off(?: on)?|greenlight|green-light|authori[sz]e|grant)\b\s*(?:for\s+)?(.*)$/;
const REJECT_CMD =
  /^(?:(?:please|pls|kindly|ok|okay|yes|then|now|and|so|go ahead and|can you|could you|would you|i'?d like to|i want to|i would like to|let'?s|lets|i)\s+)*(reject|decline|deny|refuse|turn down|disapprove|say no to|don'?t approve|do not approve)\b\s*(.*)$/;

export function decisionCommand(lower: string): { decision: 'Approved' | 'Rejected'; rest: string } | undefined {
  const s = lower.replace(/[!?.]+$/, '').trim();
  // 'did I already approve LR-000012?' / 'why was PC-000092 declined' ask; they decide nothing
  if (
    isQuestionShaped(lower) &&
    !/^(?:(?:please|pls|ok|okay)\s+)?(?:can|could|would|will) you\b/.test(s) &&
    !APPROVE_CMD.test(s) &&
    !REJECT_CMD.test(s)
  )
    return undefined;
  // 'looks fine, approve it': the command may follow a first clause
  const clause = /^[^,.;!]{2,40}[,.;!]\s*(.+)$/.exec(s);
  if (clause && !ID_RE.test(s.slice(0, s.length - clause[1].length))) {
    const inner = decisionCommand(clause[1]);
    if (inner && (APPROVE_CMD.test(clause[1]) || REJECT_CMD.test(clause[1]))) return inner;
  }
  const no = /^(?:no|nope|nah|a no)\s+(?:to|for)\s+(.*)$/.exec(s);
  if (no && ID_RE.test(no[1])) return { decision: 'Rejected', rest: no[1] };
  const r = REJECT_CMD.exec(s);
  if (r) return { decision: 'Rejected', rest: r[2] };
  const a = APPROVE_CMD.exec(s);
  if (a && !/^(d|al)\b/.test(a[2])) return { decision: 'Approved', rest: a[2] };
  if (ID_RE.test(s)) {
    if (/\b(reject(ing)?|declin(e|ing)|deny(ing)?|refus(e|ing)|turn(ing)? down)\b/.test(s)) return { decision: 'Rejected', rest: s };
    if (/\b(approv(e|ing)|accept(ing)?|sign(ing)? off)\b/.test(s)) return { decision: 'Approved', rest: s };
  }
  return undefined;
}

/** How a question starts: an auxiliary or a question word, after greetings and fillers ('hey so did my ...'). */
const QUESTION_START =
  /^(?:(?:hey|hi|hiya|hello|yo|morning|good morning|ok|okay|so|and|also|btw|quick question|just wondering|just checking|um+|hmm+|sorry|please|pls|can you tell me|could you tell me|tell me|i wonder|i was wondering|wondering|lol|so like)\b[\s,!.:-]*)*(did|does|do|has|have|had|was|were|is|isn'?t|are|am|any|anything|what|whats|what'?s|where|wheres|where'?s|why|how|how'?s|hows|who|which|when|status|news|update|updates|reason|list|show|check|can you check|could you check|if|whether)\b/;

/** Words that ask about the state of a request, not for a new one. */
const STATE_WORDS =
  /\b(approved|approve|okayed|okay'?d|ok'?d|the ok|green ?lit|signed off|sign(?:ed)? off|go through|gone through|went through|get through|got through|gets through|confirmed|accepted|rejected|declined|refused|refuse|turned down|knocked back|denied|pending|waiting|sitting with|any (?:news|word|update)|news|word on|update on|updates on|what happened|happened (?:to|with)|story with|where(?:'s| is| are|s) (?:my|the|that|it)|sorted|fixed|resolved|status|looked at|seen|looking|reason|why|how come|decided|processed|check on|up with|booked|done|been (?:booked|done|sorted|processed|handled))\b/;

/** Does a message look like a question (a question word or auxiliary first, or a question mark)? */
export function isQuestionShaped(lower: string): boolean {
  return /\?/.test(lower) || QUESTION_START.test(lower.trim());
}

/**
 * A question about requests already made ('has the Berlin trip been okayed yet?', 'any news on the contract I
 * sent?', 'why did they refuse my travel request'): answered with their status, never by starting a form, even
 * when a form's words occur in it.
 */
export function isRequestQuestion(lower: string): boolean {
  const s = lower.trim();
  if (!isQuestionShaped(s) || !STATE_WORDS.test(s)) return false;
  // 'can I have next friday off?' asks for something new
  if (/^(?:can|could|may|shall|should|would|will) (?:i|we|you)\b(?! (?:tell|check|see|show|let me know))/.test(s)) return false;
  if (
    LEAVE_TAKING.test(s) &&
    !/\b(did|has|have|was|were|is|are)\b[^.?!]{0,40}\b(approved|rejected|declined|okayed|confirmed|signed off)\b/.test(s)
  )
    return false;
  return (
    ID_RE.test(s) ||
    REQUEST_WORDS.test(s) ||
    /\b(my|mine|one|ones|it|that|them|they|things?|stuff|i sent|i submitted|i ordered|i asked|i'?ve got|i have|i got|have i|got i)\b/.test(
      s,
    ) ||
    s.split(/\s+/).length <= 3
  );
}

const OWN_REQUESTS = /\b(my|i|i've|i have|i submitted|i raised|i made|mine)\b/;
const REQUEST_WORDS =
  /\b(request|requests|submission|submissions|application|applications|form|forms|ticket|tickets|booking|bookings|reservation|reservations|claim|claims|leave|travel|trip|flight|petty cash|requisition|purchase|order|password reset|incident|info update|expense|expenses|nda|contract|room|rooms|course|training|equipment|monitor|laptop)\b/;

export function isStatusQuestion(lower: string): boolean {
  const statusWord =
    /\b(status|track|tracking|progress|update on|updates on|news on|news about|where is|where's|wheres|what happened|happened to|approved yet|been approved|been rejected|was (it )?(approved|rejected|declined)|were (they )?(approved|rejected)|got (approved|rejected|declined)|is (it )?(still )?pending|still pending|are (they )?(still )?pending|stuck|who is (it )?waiting on|any news|did (my|the) (manager|boss|hr|finance)? ?(approve|reject|sign)|has (my|the)\b.*\b(been|got)|is my\b.*\b(approved|rejected|done|resolved|confirmed|closed|completed|pending))\b/;
  const listing =
    /\b(show|list|see|view|display|give me|what are|which are|check)\b[^.?!]{0,20}\b(my|all my)\b[^.?!]{0,25}\b(requests|submissions|applications|forms|tickets|bookings|claims)\b|\bmy (pending|recent|open|submitted|approved|rejected|last|latest) (requests|submissions|applications|forms|tickets|bookings|claims|request|leave requests)\b|\bwhich of my\b/;
  if (listing.test(lower)) return true;
  if (
    statusWord.test(lower) &&
    (OWN_REQUESTS.test(lower) || ID_RE.test(lower)) &&
    (REQUEST_WORDS.test(lower) || ID_RE.test(lower) || /\bit\b/.test(lower))
  )
    return true;
  if (/\bstatus\b/.test(lower) && ID_RE.test(lower)) return true;
  return false;
}

export function isBalanceQuestion(lower: string): boolean {
  if (
    /\b(leave|vacation|holiday|pto|annual|sick)\b[^.?!]{0,20}\b(balance|entitlement|allowance|quota)\b|\bbalance\b[^.?!]{0,20}\b(leave|vacation|holiday|days)\b/.test(
      lower,
    )
  )
    return true;
  if (
    /\bhow (many|much)\b[^.?!]{0,40}\b(leave|leaves|vacation|holiday|holidays|pto|days off|day off|sick days|annual)\b[^.?!]{0,40}\b(left|remaining|remain|have|got|still|used|taken|available|can i take|do i get)\b/.test(
      lower,
    )
  )
    return true;
  if (
    /\b(leave|vacation|pto|annual|holiday) (days )?(left|remaining|balance)\b|\bdays (of leave )?(left|remaining)\b|\bout of (annual )?leave\b|\bremaining (annual )?(leave|vacation|days)\b/.test(
      lower,
    )
  )
    return true;
  return false;
}

export function isHolidayQuestion(lower: string, holidayNames: readonly string[]): boolean {
  if (LEAVE_TAKING.test(lower) && !/\b(public|bank|national)\s+holidays?\b|\bholidays (in|this|next|coming)\b|\blist\b/.test(lower))
    return false;
  const named = holidayNames.some((n) => new RegExp(`\\b${n.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(lower));
  const holidayWord = /\b(holiday|holidays|festival|festivals|bank holiday|public holiday|office (is )?closed|day off for)\b/.test(lower);
  const question = /\b(when|which|what|list|upcoming|next|coming|calendar|show|any|how many|is|are|date|dates|day)\b/.test(lower);
  return (named && question) || (holidayWord && question);
}

export function isQueueQuestion(lower: string): boolean {
  if (/\b(my|i) (own )?(submitted|raised)\b/.test(lower)) return false;
  if (
    /\bmy (pending |open )?(own )?(leave |travel |petty cash |purchase )?(requests?|submissions?|applications?)\b(?! (waiting|pending|awaiting) (for )?(me|my))/.test(
      lower,
    ) &&
    !/\b(for|to) me\b|\bmy (approval|review|decision|queue|team)\b/.test(lower)
  )
    return false;
  if (/\b(need|needs|needing|require|requires|awaiting|waiting for)\b[^.?!]{0,20}\b(approval|review|decision|sign ?off)\b/.test(lower))
    return true;
  if (
    /\banything (new |else )?(for|waiting for|to do for) me\b|\bwhat('s| is)? (new|waiting|pending)? ?for me\b|\bfor me (today|to do)\b|\bwhat do i have (today|to do|on)\b|\bmy (to-?do|todo|tasks)\b/.test(
      lower,
    )
  )
    return true;
  return /\b(pending|waiting|awaiting|queue|to approve|to decide|to review|to sign|need(s|ing)? my (approval|attention|decision|sign ?off|review)|for my (approval|review|decision|sign ?off|attention)|sign off|inbox|on my plate|approvals|open tickets|tickets? (open|waiting)|my team'?s? (requests|leave)|from my team)\b/.test(
    lower,
  );
}

/** An approver asking about their own queue ('anything on my plate?', 'what do I gotta approve', 'how many can I decide now'). */
export function isOwnQueueQuestion(lower: string): boolean {
  if (
    /\b(my|mine)\b[^.?!]{0,30}\b(been|get|got|go|gone|went|is|was|were)\b[^.?!]{0,20}\b(approved|rejected|declined|through)\b/.test(lower)
  )
    return false;
  return (
    (/\b(on my plate|on my desk|in my inbox|my inbox|my queue|my to-?do|on me|for me|for my (approval|approving|review|decision|sign ?off)|needs? my (approval|sign ?off|review|attention|decision|ok))\b/.test(
      lower,
    ) &&
      /\b(anything|what|whats|what'?s|how many|how much|any|got|which|is there|are there|show|list|waiting|pending)\b/.test(lower)) ||
    /\b(i|we) (gotta|got to|have to|need to|must|should|can) (approve|decide|review|sign off|look at)\b/.test(lower) ||
    /\bhow many\b[^.?!]{0,30}\b(can|could|do|should) i (decide|approve|sign off|action|do)\b/.test(lower) ||
    /\b(approvals?|sign-?offs?)\b[^.?!]{0,20}\b(waiting|pending|for me)\b|\b(do i have|have i got|got any)\b[^.?!]{0,15}\b(approvals?|approving|to approve)\b/.test(
      lower,
    )
  );
}

export function isWithdrawRequest(lower: string): boolean {
  if (!/\b(cancel|withdraw|retract|revoke|take back|pull back|delete|scrap|drop|remove|call off)\b/.test(lower)) return false;
  if (/\baccess (to|for)\b/.test(lower) && !/\brequest\b/.test(lower)) return false;
  return (
    ID_RE.test(lower) ||
    /\b(request|booking|reservation|application|submission|ticket|claim)\b/.test(lower) ||
    /\b(my|the|that|this)\s+(last |latest |pending |recent )?(leave|trip|travel|meeting room|room|petty cash|purchase|requisition|password reset|incident|expense|training|event|transport|nda|contract)\b/.test(
      lower,
    )
  );
}

const HELP =
  /\b(what can you (do|help)|what (else )?can i ask|how can you help|what do you do|help me with|what are you able|your capabilities|what services|how does this work|what can you help me with|what can i do here)\b|^(help|menu|options|help me|help please|i need help)[!. ]*$/;
const GREETING = /^(hi|hello|hey|hiya|howdy|greetings|good (morning|afternoon|evening|day)|morning|yo|hi there|hello there|hey there)\b/;

/** The intent of one message. `approver` enables the approval intents. */
const FOLLOW_UP_INTENTS: Intent[] = ['requests.status', 'holiday.info', 'approvals.queue', 'leave.balance'];

export async function understand(
  lower: string,
  opts: { approver: boolean; holidayNames: readonly string[]; lastIntent?: string },
): Promise<Understanding> {
  const nlu = await classify(lower);
  const scores = formScores(lower, nlu);
  const out = (intent: Intent, score = 1, formType?: string, source: Understanding['source'] = 'rule'): Understanding => ({
    intent,
    source,
    score,
    formType,
    nlu,
    formScores: scores,
  });

  if (!lower.trim()) return out('unknown', 0, undefined, 'none');
  // 'and my petty cash?' / 'what about Christmas?' continue the last question
  if (
    opts.lastIntent &&
    (FOLLOW_UP_INTENTS as string[]).includes(opts.lastIntent) &&
    /^(and|what about|how about|also|and what about|same for|and for)\b/.test(lower.trim()) &&
    lower.split(/\s+/).length <= 8 &&
    !/\b(book|apply|request a|raise|submit|report|reserve|order|buy)\b/.test(lower)
  ) {
    return out(opts.lastIntent as Intent);
  }
  const cmd = decisionCommand(lower);
  if (cmd) return out(cmd.decision === 'Approved' ? 'approvals.approve' : 'approvals.reject');
  // 'what about leave requests?' asks, it does not apply
  if (
    /^(what|how) about\b/.test(lower.trim()) &&
    REQUEST_WORDS.test(lower) &&
    !/\b(book|apply|raise|submit|reserve|order|buy)\b/.test(lower)
  ) {
    return out(opts.approver ? 'approvals.queue' : 'requests.status');
  }
  if (isWithdrawRequest(lower)) return out('request.withdraw');
  if (isBalanceQuestion(lower)) return out('leave.balance');
  if (opts.approver && isOwnQueueQuestion(lower)) return out('approvals.queue');
  // an approver asking what waits at their stage ('leave requests pending HR review'), not about their own requests
  if (
    opts.approver &&
    isQueueQuestion(lower) &&
    !ID_RE.test(lower) &&
    !/\b(my|mine|i (sent|submitted|raised|asked|ordered|made|booked))\b/.test(lower)
  )
    return out('approvals.queue');
  // a question about requests, or a request id anywhere (that is not a command): that request's status
  if (isRequestQuestion(lower) && !isHolidayQuestion(lower, opts.holidayNames)) return out('requests.status');
  if (ID_RE.test(lower) && !/\b(show|details?|view|open|tell me|describe|look at|more about|who)\b/.test(lower))
    return out('requests.status');
  if (isStatusQuestion(lower)) return out('requests.status');
  if (isHolidayQuestion(lower, opts.holidayNames)) return out('holiday.info');
  if (opts.approver && isQueueQuestion(lower)) return out('approvals.queue');
  if (
    ID_RE.test(lower) &&
    /\b(show|details?|view|open|tell me|what is|what's|info|information|describe|look at|see|about|who)\b/.test(lower)
  )
    return out('approvals.details');
  if (
    /\b(details? (of|on|for|about)|tell me (more )?about|more (info|information|details) (on|about)|show( me)?( the details of)?|open|view|describe)\s+(the\s+)?(first|second|third|fourth|fifth|last|that|this|it)(\s+(one|request))?\s*(please)?\s*[?.!]*$/.test(
      lower.trim(),
    )
  )
    return out('approvals.details');
  if (HELP.test(lower)) return out('help');

  const top = nlu.intent;
  const best = scores[0];
  // a clear form cue wins; otherwise the NLU decides between forms and the other intents
  if (best && best.score >= 2.5) return out('form', best.score, best.formType, 'cue');
  if (top.startsWith('form.') && nlu.score >= 0.6 && best) return out('form', best.score, best.formType, 'nlu');
  const nonForm: Intent[] = [
    'greet',
    'help',
    'thanks',
    'bye',
    'identity',
    'leave.balance',
    'requests.status',
    'holiday.info',
    'request.withdraw',
    'approvals.queue',
    'approvals.details',
    'approvals.approve',
    'approvals.reject',
  ];
  if ((nonForm as string[]).includes(top) && nlu.score >= 0.55) {
    let intent = top as Intent;
    if (intent.startsWith('approvals.') && !opts.approver)
      intent = intent === 'approvals.queue' ? 'requests.status' : intent === 'approvals.details' ? 'requests.status' : intent;
    if (
      (intent === 'approvals.approve' || intent === 'approvals.reject') &&
      !decisionCommand(lower) &&
      !ID_RE.test(lower) &&
      !/\b(it|this|that|first|second|last|all)\b/.test(lower)
    ) {
      // an approve/reject classification without an object is too weak to act on
      if (best && best.score >= 1.5) return out('form', best.score, best.formType, 'cue');
    }
    // a decision is taken only on an explicit command ('approve it'); the classifier alone ('tell me more about it
    // before I approve it') at most shows the request
    if ((intent === 'approvals.approve' || intent === 'approvals.reject') && !decisionCommand(lower)) {
      if (ID_RE.test(lower) || /\b(it|this|that|first|second|last)\b/.test(lower))
        return out('approvals.details', nlu.score, undefined, 'nlu');
      return out('unknown', nlu.score, undefined, 'none');
    }
    return out(intent, nlu.score, undefined, 'nlu');
  }
  if (best && best.score >= 1.5) return out('form', best.score, best.formType, 'cue');
  if (GREETING.test(lower)) return out('greet');
  if (ID_RE.test(lower)) return out('approvals.details');
  if (/^(thanks|thank you|cheers|thx)\b/.test(lower)) return out('thanks');
  return out('unknown', nlu.score, undefined, 'none');
}
