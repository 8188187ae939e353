// The NLU's training thread: trains the assistant's model on the corpus and posts it back as node-nlp's export,
// which the server's thread loads (nlu.ts trainInWorker). Started by a listening server.
import { parentPort } from 'node:worker_threads';
import { trainedModel } from './nlu.js';

const port = parentPort;
if (port) {
  trainedModel().then(
    (model) => port.postMessage({ model }),
    (err: unknown) => port.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
}
