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
  private buf: Buffer = Buffer.alloc(0);
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
    this.buf = Buffer.alloc(0);
    if (w) {
      clearTimeout(w.timer);
      w.reject(e);
    }
  }

  private onData(d: Buffer) {
    this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
    const w = this.waiting;
    if (!w) return;
    const end = this.buf.indexOf(HEAD_END);
    if (end < 0) return;
    const head = this.buf.toString('latin1', 0, end);
    const status = Number(head.slice(9, 12));
    const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
    let total: number;
    let body: Buffer | undefined;
    if (length) {
      total = end + 4 + Number(length[1]);
      if (this.buf.length < total) return;
      if (w.keepBody) body = this.buf.subarray(end + 4, total);
    } else if (/\r\ntransfer-encoding:[ \t]*chunked/i.test(head)) {
      const parts: Buffer[] = [];
      let at = end + 4;
      for (;;) {
        const eol = this.buf.indexOf('\r\n', at);
        if (eol < 0) return;
        const size = parseInt(this.buf.toString('latin1', at, eol), 16);
        if (size === 0) {
          const fin = this.buf.indexOf(HEAD_END, eol);
          if (fin < 0 && this.buf.length < eol + 4) return;
          total = fin >= 0 ? fin + 4 : eol + 4;
          break;
        }
        if (this.buf.length < eol + 2 + size + 2) return;
        if (w.keepBody) parts.push(this.buf.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
      if (w.keepBody) body = Buffer.concat(parts);
    } else {
      // No length (a server closing after its answer): the rest of the stream, at close. Not used by this server.
      this.fail(new Error(`an answer without a length: ${head.split('\r\n')[0]}`));
      this.socket?.destroy();
      return;
    }
    const rest = this.buf.subarray(total);
    this.buf = rest.length > 0 ? Buffer.from(rest) : Buffer.alloc(0);
    this.waiting = null;
    clearTimeout(w.timer);
    if (/\r\nconnection:[ \t]*close/i.test(head)) {
      this.socket?.end();
      this.socket = null;
    }
    w.resolve({ status, bytes: total, body });
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
