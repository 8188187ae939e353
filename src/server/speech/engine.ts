// The offline speech engine: espeak-ng (WebAssembly, voices and dictionaries embedded, nothing downloaded) renders
// 16-bit PCM; LAME compiled to WebAssembly (wasm-media-encoders) encodes MP3. CPU-bound: the server runs it in worker threads (pool.ts), never on the
// request thread.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import ESpeakNg, { type ESpeakNgModule } from 'espeak-ng';
import { type WasmMediaEncoder, createEncoder } from 'wasm-media-encoders';
import { type AudioFormat, OFFLINE_FORMATS, type Pcm, encodeWav, parseWav } from './formats.js';

const require = createRequire(import.meta.url);

export interface RenderRequest {
  text: string;
  /** espeak-ng voice, e.g. 'en-us' or 'en-us+f3'. */
  espeakVoice: string;
  format: AudioFormat;
  /** Speaking rate in words per minute (espeak's default is 175). */
  rateWpm?: number;
}

export interface RenderResult {
  audio: Uint8Array;
  durationSec: number;
  sampleRate: number;
}

export const DEFAULT_RATE_WPM = 160;
const MP3_KBPS = 48 as const;

let wasmModule: Promise<WebAssembly.Module> | null = null;

/** Compiles the 18 MB WebAssembly module once per thread. */
function espeakWasm(): Promise<WebAssembly.Module> {
  if (!wasmModule) {
    const file = path.join(path.dirname(require.resolve('espeak-ng')), 'espeak-ng.wasm');
    wasmModule = WebAssembly.compile(readFileSync(file));
    wasmModule.catch(() => {
      wasmModule = null;
    });
  }
  return wasmModule;
}

interface EspeakExports {
  memory: WebAssembly.Memory;
  stackSave(): number;
  stackRestore(sp: number): void;
  stackAlloc(size: number): number;
  __main_argc_argv(argc: number, argv: number): number;
}

/** An instantiated, not yet run espeak-ng program. The command line keeps state (getopt), so each runs once. */
interface Instance {
  module: ESpeakNgModule;
  exports: EspeakExports;
  errors: string[];
}

async function instantiate(): Promise<Instance> {
  const mod = await espeakWasm();
  const errors: string[] = [];
  let exports: EspeakExports | null = null;
  let fail: (err: unknown) => void = () => {};
  const failed = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  const module = await Promise.race([
    ESpeakNg({
      arguments: [],
      noInitialRun: true,
      print: () => {},
      printErr: (line: string) => {
        errors.push(line);
      },
      // Never set process.exitCode (Emscripten's default for Node): an espeak error is this call's failure only.
      quit: (_status: number, toThrow: unknown) => {
        throw toThrow;
      },
      instantiateWasm: (imports, done) => {
        WebAssembly.instantiate(mod, imports).then((instance) => {
          exports = instance.exports as unknown as EspeakExports;
          done(instance, mod);
        }, fail);
        return {};
      },
    }),
    failed,
  ]);
  if (!exports) throw new Error('espeak-ng did not instantiate');
  return { module, exports, errors };
}

// One instance is prepared ahead (while the worker is idle), so a request pays only for the synthesis itself.
let spare: Promise<Instance> | null = null;

/** Instantiates the next espeak program (and, the first time, the thread's MP3 encoder) in the background. */
export function prepareEspeak(): void {
  mp3EncoderOfThread().catch(() => {
    /* retried by the next MP3 clip, which reports the error */
  });
  if (spare) return;
  spare = instantiate();
  spare.catch(() => {
    spare = null;
  });
}

function takeInstance(): Promise<Instance> {
  const next = spare ?? instantiate();
  spare = null;
  return next;
}

/** Runs espeak-ng's main() with a command line; an exit() inside it is its return code. */
function runMain(inst: Instance, args: string[]): number {
  const ex = inst.exports;
  const argv = ['espeak-ng', ...args];
  const sp = ex.stackSave();
  try {
    const encoder = new TextEncoder();
    const pointers = argv.map((arg) => {
      const bytes = encoder.encode(`${arg}\0`);
      const ptr = ex.stackAlloc(bytes.length);
      new Uint8Array(ex.memory.buffer).set(bytes, ptr);
      return ptr;
    });
    const argvPtr = ex.stackAlloc((pointers.length + 1) * 4);
    const u32 = new Uint32Array(ex.memory.buffer);
    pointers.forEach((ptr, i) => {
      u32[(argvPtr >> 2) + i] = ptr;
    });
    u32[(argvPtr >> 2) + pointers.length] = 0;
    return ex.__main_argc_argv(argv.length, argvPtr);
  } catch (err) {
    if (err && typeof err === 'object' && (err as { name?: string }).name === 'ExitStatus') return (err as { status: number }).status;
    throw err;
  } finally {
    try {
      ex.stackRestore(sp);
    } catch {
      /* the instance is discarded anyway */
    }
  }
}

/** Renders text to mono 16-bit PCM with espeak-ng. The text goes through a file, so nothing in it is read as an option. */
export async function synthesizePcm(text: string, espeakVoice: string, rateWpm = DEFAULT_RATE_WPM): Promise<Pcm> {
  if (!/^[a-z0-9-]+(\+[a-z0-9]+)?$/i.test(espeakVoice)) throw new Error(`invalid espeak voice '${espeakVoice}'`);
  const inst = await takeInstance();
  inst.module.FS.writeFile('/in.txt', text);
  const code = runMain(inst, ['-b', '1', '-v', espeakVoice, '-s', String(Math.round(rateWpm)), '-w', '/out.wav', '-f', '/in.txt']);
  const detail = () => (inst.errors.length ? `: ${inst.errors.join(' ')}` : code ? ` (exit ${code})` : '');
  let wav: Uint8Array;
  try {
    wav = inst.module.FS.readFile('/out.wav');
  } catch {
    throw new Error(`espeak-ng produced no audio${detail()}`);
  }
  const parsed = parseWav(wav);
  if (parsed.samples.length === 0) throw new Error(`espeak-ng produced empty audio${detail()}`);
  return { samples: parsed.samples, sampleRate: parsed.sampleRate, channels: parsed.channels };
}

type Mp3Encoder = WasmMediaEncoder<'audio/mpeg'>;
let mp3Encoder: Promise<Mp3Encoder> | null = null;

/**
 * The thread's MP3 encoder: LAME 3.100 compiled to WebAssembly (wasm-media-encoders), loaded from the package's own
 * .wasm file once per thread and reused for every clip (each clip configures it afresh, which resets LAME).
 */
function mp3EncoderOfThread(): Promise<Mp3Encoder> {
  if (!mp3Encoder) {
    mp3Encoder = WebAssembly.compile(readFileSync(require.resolve('wasm-media-encoders/wasm/mp3'))).then((module) =>
      createEncoder('audio/mpeg', module),
    );
    mp3Encoder.catch(() => {
      mp3Encoder = null;
    });
  }
  return mp3Encoder;
}

/** Samples handed to LAME per call: a whole number of MPEG-2 Layer III frames (576 samples each). */
const MP3_BLOCK = 576 * 16;

/**
 * Encodes PCM as constant-bitrate MP3 at the PCM's own sample rate (22.05 kHz from espeak: MPEG-2 Layer III), with no
 * ID3 tag and no Xing/LAME info frame: every frame is audio, so clips can be played or joined one after another.
 */
export async function encodeMp3(pcm: Pcm, kbps: 48 | 64 | 96 | 128 = MP3_KBPS): Promise<Uint8Array> {
  if (pcm.channels !== 1 && pcm.channels !== 2) throw new Error(`MP3 needs 1 or 2 channels, not ${pcm.channels}`);
  const encoder = await mp3EncoderOfThread();
  encoder.configure({ channels: pcm.channels, sampleRate: pcm.sampleRate, bitrate: kbps });
  const frames = pcm.samples.length / pcm.channels;
  const parts: Uint8Array[] = [];
  for (let at = 0; at < frames; at += MP3_BLOCK) {
    const n = Math.min(MP3_BLOCK, frames - at);
    // LAME takes one Float32Array per channel in [-1, 1]; the PCM is interleaved 16-bit.
    const planes = Array.from({ length: pcm.channels }, () => new Float32Array(n));
    for (let i = 0; i < n; i += 1) {
      for (let c = 0; c < pcm.channels; c += 1) planes[c][i] = pcm.samples[(at + i) * pcm.channels + c] / 32768;
    }
    // The encoder's output views its own memory and is overwritten by the next call: copy it.
    const out = encoder.encode(planes);
    if (out.length) parts.push(out.slice());
  }
  const tail = encoder.finalize();
  if (tail.length) parts.push(tail.slice());
  const total = parts.reduce((sum, p) => sum + p.length, 0);
  const mp3 = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    mp3.set(p, offset);
    offset += p.length;
  }
  return mp3;
}

/** Text -> encoded audio of the requested offline format. */
export async function renderSpeech(req: RenderRequest): Promise<RenderResult> {
  if (!OFFLINE_FORMATS.includes(req.format)) throw new Error(`Unsupported audio format: ${req.format}`);
  const pcm = await synthesizePcm(req.text, req.espeakVoice, req.rateWpm);
  const audio = req.format === 'mp3' ? await encodeMp3(pcm) : encodeWav(pcm);
  return { audio, durationSec: pcm.samples.length / pcm.channels / pcm.sampleRate, sampleRate: pcm.sampleRate };
}
