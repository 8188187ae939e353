// The load generator's HTTP client: HTTP/1.1 over kept-alive sockets, requests written as one buffer, answers read
// to their end (Content-Length or chunked) and their status checked, nothing else. The load runs on the same cores
// as the server and PostgreSQL, and whatever it spends is taken from them: autocannon spent 50-700 µs of CPU per
// call (bench/README.md), this about a tenth. The raw path (a pg pool in this process) has no such cost.
import net from 'node:net';

export interface Answer {
  status: number;
  /** Bytes received: status line, headers and body. */
  bytes: number;
  /** The body, when asked for (error messages, JSON answers). */
  body?: Buffer;
}

export interface LeanRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

interface Waiting {
  resolve: (a: Answer) => void;
  reject: (e: Error) => void;
  keepBody: boolean;
  timer: NodeJS.Timeout;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** One kept-alive connection: one request at a time (no pipelining). */
export class LeanConnection {
  private socket: net.Socket | null = null;
  private connecting: Promise<net.Socket> | null = null;
  private chunks: Buffer[] = [];
  private have = 0;
  /** The answer being read: its head, where its body starts, and its whole length (-1: head not read yet; 0: chunked). */
  private head = '';
  private bodyAt = 0;
  private total = -1;
  private waiting: Waiting | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs = 10_000,
  ) {}

  private connect(): Promise<net.Socket> {
    if (this.socket) return Promise.resolve(this.socket);
    this.connecting ??= new Promise<net.Socket>((resolve, reject) => {
      const s = net.connect({ host: this.host, port: this.port, noDelay: true });
      s.once('connect', () => {
        this.socket = s;
        this.connecting = null;
        s.removeListener('error', reject);
        s.on('error', (e) => {
          if (this.socket === s) this.fail(e);
        });
        resolve(s);
      });
      s.once('error', (e) => {
        this.connecting = null;
        reject(e);
      });
      // A socket this connection has let go (the server said Connection: close) is no longer heard.
      s.on('data', (d: Buffer) => {
        if (this.socket === s) this.onData(d);
      });
      s.on('close', () => {
        if (this.socket !== s) return;
        this.socket = null;
        this.fail(new Error('connection closed'));
      });
    });
    return this.connecting;
  }

  private fail(e: Error) {
    const w = this.waiting;
    this.waiting = null;
    this.chunks = [];
    this.have = 0;
    this.total = -1;
    if (w) {
      clearTimeout(w.timer);
      w.reject(e);
    }
  }

  private onData(d: Buffer) {
    // Chunks are kept as they come and joined only when needed (a long answer arrives in several reads).
    this.chunks.push(d);
    this.have += d.length;
    const w = this.waiting;
    if (!w) return;
    if (this.total < 0) {
      const first = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [first];
      const end = first.indexOf(HEAD_END);
      if (end < 0) return;
      this.head = first.toString('latin1', 0, end);
      this.bodyAt = end + 4;
      const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(this.head);
      if (length) this.total = this.bodyAt + Number(length[1]);
      else if (/\r\ntransfer-encoding:[ \t]*chunked/i.test(this.head))
        this.total = 0; // found by reading the chunks
      else {
        // No length (a server closing after its answer): not what this server does.
        this.fail(new Error(`an answer without a length: ${this.head.split('\r\n')[0]}`));
        this.socket?.destroy();
        return;
      }
    }
    let total = this.total;
    let body: Buffer | undefined;
    if (total > 0) {
      if (this.have < total) return;
      if (w.keepBody || this.have > total) {
        const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
        this.chunks = [all];
        if (w.keepBody) body = all.subarray(this.bodyAt, total);
      }
    } else {
      const buf = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [buf];
      const parts: Buffer[] = [];
      let at = this.bodyAt;
      for (;;) {
        const eol = buf.indexOf('\r\n', at);
        if (eol < 0) return;
        const size = parseInt(buf.toString('latin1', at, eol), 16);
        if (size === 0) {
          const fin = buf.indexOf(HEAD_END, eol);
          if (fin < 0) return;
          total = fin + 4;
          break;
        }
        if (buf.length < eol + 2 + size + 2) return;
        if (w.keepBody) parts.push(buf.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
      if (w.keepBody) body = Buffer.concat(parts);
    }
    // What came after the answer (nothing, without pipelining) is kept for the next one.
    const rest = this.have > total ? Buffer.from(this.chunks[0].subarray(total)) : null;
    this.chunks = rest ? [rest] : [];
    this.have = rest ? rest.length : 0;
    this.total = -1;
    const head = this.head;
    this.waiting = null;
    clearTimeout(w.timer);
    if (/\r\nconnection:[ \t]*close/i.test(head)) {
      this.socket?.end();
      this.socket = null;
    }
    w.resolve({ status: Number(head.slice(9, 12)), bytes: total, body });
  }

  async request(r: LeanRequest, keepBody = false): Promise<Answer> {
    if (this.waiting) throw new Error('one request at a time per connection');
    const s = await this.connect();
    const body = r.body ?? '';
    let text = `${r.method} ${r.path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\n`;
    if (r.headers) for (const k in r.headers) text += `${k}: ${r.headers[k]}\r\n`;
    if (r.method !== 'GET' || body !== '') text += `content-length: ${Buffer.byteLength(body)}\r\n`;
    text += `\r\n${body}`;
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(new Error(`timeout after ${this.timeoutMs} ms`));
        s.destroy();
      }, this.timeoutMs);
      this.waiting = { resolve, reject, keepBody, timer };
      s.write(text);
    });
  }

  close() {
    this.socket?.destroy();
    this.socket = null;
  }
}

/** Connections to one server, reused: a request takes an idle one or opens another. */
export class LeanPool {
  private readonly idle: LeanConnection[] = [];
  private readonly all: LeanConnection[] = [];
  private readonly host: string;
  private readonly port: number;

  constructor(base: string) {
    const u = new URL(base);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
  }

  async request(r: LeanRequest, keepBody = false): Promise<Answer> {
    let c = this.idle.pop();
    if (!c) {
      c = new LeanConnection(this.host, this.port, 30_000);
      this.all.push(c);
    }
    try {
      return await c.request(r, keepBody);
    } finally {
      this.idle.push(c);
    }
  }

  close() {
    for (const c of this.all) c.close();
  }
}
