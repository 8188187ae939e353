// The NLU of the built-in assistant: a node-nlp (@nlpjs) NlpManager trained once per process from the
// project's own corpus (intents and enum entities), offline. Training starts when the chat feature loads and
// takes about a second; every later call reuses the trained model.
import { createRequire } from 'node:module';
import { FORM_CORPUS, INTENT_CORPUS } from '../corpus/intents.js';
import { FIELD_LEXICONS } from '../corpus/entities.js';
import { WILD_FORM_CORPUS, WILD_INTENT_CORPUS } from '../corpus/wild.js';

export interface NluEntity {
  entity: string;
  option: string;
  text: string;
  start: number;
  end: number;
  accuracy: number;
}
export interface NluResult {
  intent: string;
  score: number;
  classifications: Array<{ intent: string; score: number }>;
  entities: NluEntity[];
}

interface Manager {
  addDocument(locale: string, utterance: string, intent: string): void;
  addNamedEntityText(entity: string, option: string, languages: string[], texts: string[]): void;
  train(): Promise<void>;
  process(locale: string, utterance: string): Promise<any>;
}

let ready: Promise<Manager> | undefined;
let trainedMs = 0;

/** Milliseconds the last training took (0 before it finished). */
export function trainingMs(): number {
  return trainedMs;
}

async function train(): Promise<Manager> {
  const started = Date.now();
  const require = createRequire(import.meta.url);
  const { NlpManager } = require('node-nlp') as { NlpManager: new (opts: unknown) => Manager };
  const manager = new NlpManager({
    languages: ['en'],
    forceNER: true,
    autoSave: false,
    autoLoad: false,
    // No training log (node-nlp prints every epoch to the console otherwise); no model file written or read.
    nlu: { log: false, useNoneFeature: true },
    // Exact entity matches only: typos are already corrected against the vocabulary before the NLU (text.ts),
    // and node-nlp's fuzzy matching (threshold < 1) was a third of a chat reply's CPU under load.
    ner: { builtins: [], threshold: 1 },
  });
  for (const corpus of [INTENT_CORPUS, WILD_INTENT_CORPUS])
    for (const [intent, utterances] of Object.entries(corpus)) for (const u of utterances) manager.addDocument('en', u, intent);
  for (const corpus of [FORM_CORPUS, WILD_FORM_CORPUS])
    for (const [formType, utterances] of Object.entries(corpus))
      for (const u of utterances) manager.addDocument('en', u, `form.${formType}`);
  for (const [field, lex] of Object.entries(FIELD_LEXICONS)) {
    for (const [option, phrases] of Object.entries(lex))
      manager.addNamedEntityText(field, option, ['en'], [option.toLowerCase(), ...phrases]);
  }
  // Training writes nothing: the NLU's own `log: false` (above) turns off its per-epoch lines, which is the only
  // output of training (a test runs the training in a child process and checks that it prints nothing).
  await manager.train();
  trainedMs = Date.now() - started;
  return manager;
}

/** The trained manager; the first call starts the training, later calls share it. */
export function nluReady(): Promise<Manager> {
  if (!ready) {
    ready = train();
    ready.catch(() => {
      ready = undefined;
    });
  }
  return ready;
}

/** Whether training has finished. */
export function isNluTrained(): boolean {
  return trainedMs > 0;
}

export async function classify(text: string): Promise<NluResult> {
  const manager = await nluReady();
  const r = await manager.process('en', text);
  const classifications = (r.classifications ?? []).map((c: any) => ({ intent: String(c.intent), score: Number(c.score) }));
  const entities: NluEntity[] = (r.entities ?? [])
    .filter((e: any) => e.type === 'enum' || e.option)
    .map((e: any) => ({
      entity: e.entity,
      option: e.option,
      text: e.utteranceText ?? e.sourceText ?? '',
      start: e.start,
      end: e.end,
      accuracy: e.accuracy,
    }));
  return { intent: r.intent ?? 'None', score: Number(r.score ?? 0), classifications, entities };
}
