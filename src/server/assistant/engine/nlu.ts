// The NLU of the built-in assistant: a node-nlp (@nlpjs) NlpManager trained once per process from the
// project's own corpus (intents and enum entities), offline. Training takes about a second of CPU; every later call
// reuses the trained model. A listening server trains it in a worker thread (nlu-worker.ts) and then loads the model
// the thread hands back (loading node-nlp and the model here costs a fraction of training), so the event loop keeps
// answering (health checks, the first requests after a restart) while it trains; in-process test apps train it in
// their own thread.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { moduleLogger } from '../../logger.js';
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
  export(minified?: boolean): string;
  import(data: string): void;
}

let ready: Promise<Manager> | undefined;
let trainedMs = 0;

/** Milliseconds the last training took (0 before it finished). */
export function trainingMs(): number {
  return trainedMs;
}

/** An untrained manager with the assistant's options. */
function newManager(): Manager {
  const require = createRequire(import.meta.url);
  const { NlpManager } = require('node-nlp') as { NlpManager: new (opts: unknown) => Manager };
  return new NlpManager({
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
}

/** A manager trained on the corpus, in this thread. */
async function trainHere(): Promise<Manager> {
  const manager = newManager();
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
  return manager;
}

/** The trained model as node-nlp exports it (what the worker thread hands back). */
export async function trainedModel(): Promise<string> {
  return (await trainHere()).export(true);
}

// The built server runs the compiled nlu-worker.js beside this file; from source (tsx, vitest) it is nlu-worker.ts,
// and the thread gets tsx's loader itself (a new thread does not inherit it). Production never loads tsx.
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const WORKER_URL = new URL(FROM_SOURCE ? './nlu-worker.ts' : './nlu-worker.js', import.meta.url);
const WORKER_EXEC_ARGV = FROM_SOURCE ? [...process.execArgv, '--import', 'tsx'] : undefined;

/** The trained model, trained in a worker thread (this thread stays free meanwhile). */
export function modelFromWorker(): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const worker = new Worker(WORKER_URL, WORKER_EXEC_ARGV ? { execArgv: WORKER_EXEC_ARGV } : {});
    worker.once('message', (msg: { model?: string; error?: string }) => {
      if (typeof msg.model === 'string') resolve(msg.model);
      else reject(new Error(msg.error ?? 'the NLU worker answered no model'));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the NLU worker ended (code ${code}) without a model`)));
  });
}

/** A manager of this thread loaded with a model trained elsewhere (node-nlp's export). */
export function managerFromModel(model: string): Manager {
  const manager = newManager();
  manager.import(model);
  return manager;
}

/** Trains in a worker thread and loads the model it hands back into a manager of this thread. */
export async function trainInWorker(): Promise<Manager> {
  return managerFromModel(await modelFromWorker());
}

async function train(offThread: boolean): Promise<Manager> {
  const started = Date.now();
  // A worker that cannot start (or fails) costs the event loop nothing more than training here would have.
  const manager = offThread
    ? await trainInWorker().catch((err: unknown) => {
        moduleLogger('assistant').warn({ err: (err as Error).message }, 'NLU worker thread failed; training in this thread');
        return trainHere();
      })
    : await trainHere();
  trainedMs = Date.now() - started;
  return manager;
}

/**
 * Use a model trained elsewhere (node-nlp's export, from `trainedModel`) instead of training: the test harness trains
 * once per run and every test app of the run loads that model (loading takes ~60 ms, training ~2 s of CPU).
 */
export function useTrainedModel(model: string): void {
  const started = Date.now();
  ready = Promise.resolve(managerFromModel(model));
  trainedMs = Math.max(1, Date.now() - started);
}

/**
 * The trained manager; the first call starts the training, later calls share it. `offThread`: train in a worker
 * thread (a listening server), else in this thread.
 */
export function nluReady(opts: { offThread?: boolean } = {}): Promise<Manager> {
  if (!ready) {
    ready = train(opts.offThread ?? false);
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
