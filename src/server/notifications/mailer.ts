// Optional e-mail of notifications (nodemailer): the owner on a final decision, an approver on a new item at their
// stage. Off unless SMTP is configured; then notifications that merit an e-mail are queued in their own row
// (email_state) and any instance sends them, claiming rows with SKIP LOCKED so each goes out once.
import nodemailer, { type Mail } from 'nodemailer';
import { changeLine } from '../../domain/notifications.js';
import { requestPath } from '../../domain/web-routes.js';
import type { MailSettings } from '../config.js';
import type { Db } from '../db/pool.js';
import type { HubLogger } from './hub.js';

/**
 * The SMTP settings (config.ts reads them: SMTP_URL, or SMTP_HOST with SMTP_PORT, SMTP_USER, SMTP_PASSWORD and
 * SMTP_SECURE; MAIL_FROM; ADMINEASE_PUBLIC_URL for the link to the request). Without any, config.mail is null and nothing is sent.
 */
export type { MailSettings } from '../config.js';

/** Attempts per e-mail before it is marked failed. */
const MAX_ATTEMPTS = 5;
/** E-mails about changes older than this are not sent any more (e.g. after a long SMTP outage). */
const MAX_AGE = '1 day';

interface OutboxRow {
  id: number;
  title: string;
  approval_field: string | null;
  old_value: string | null;
  new_value: string | null;
  email_kind: string;
  email_attempts: number;
  /** The request's human id (the notification's form_id), or null. */
  form_id: string | null;
  email: string;
  first_name: string;
}

export class Mailer {
  private readonly transporter: Mail<any, any>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly settings: MailSettings,
    private readonly log: HubLogger,
    private readonly pollMs = 10_000,
  ) {
    this.transporter = nodemailer.createTransport(settings.transport as any);
  }

  start() {
    this.timer = setInterval(() => void this.kick(), this.pollMs);
    this.timer.unref?.();
    void this.kick();
  }

  /** Sends what is queued now (coalesces calls while a run is going). */
  kick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.closed && (await this.sendBatch()) > 0);
        } while (this.again && !this.closed);
      } catch (err) {
        this.log.error({ err }, 'notification e-mail run failed');
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Claims up to 20 queued e-mails and sends them; returns how many were claimed. */
  private async sendBatch(): Promise<number> {
    await this.db.query(
      `UPDATE notifications SET email_state = 'skipped' WHERE email_state = 'queued' AND created_at < now() - interval '${MAX_AGE}'`,
    );
    const claimed = await this.db.query<OutboxRow>(
      `UPDATE notifications n SET email_state = 'sending', email_attempts = n.email_attempts + 1, emailed_at = now()
         FROM users u
        WHERE u.id = n.user_id AND n.id IN (
              SELECT id FROM notifications
               WHERE email_state = 'queued' OR (email_state = 'sending' AND emailed_at < now() - interval '5 minutes')
               ORDER BY id LIMIT 20 FOR UPDATE SKIP LOCKED)
        RETURNING n.id, n.title, n.approval_field, n.old_value, n.new_value, n.email_kind, n.email_attempts, n.form_id, u.email, u.first_name`,
    );
    for (const row of claimed.rows) {
      try {
        await this.transporter.sendMail(this.compose(row));
        await this.db.query(`UPDATE notifications SET email_state = 'sent', emailed_at = now() WHERE id = $1`, [row.id]);
      } catch (err) {
        const failed = row.email_attempts >= MAX_ATTEMPTS;
        this.log.warn({ err: (err as Error).message, notification: row.id, attempt: row.email_attempts }, 'notification e-mail not sent');
        await this.db.query(`UPDATE notifications SET email_state = $2 WHERE id = $1`, [row.id, failed ? 'failed' : 'queued']);
      }
    }
    return claimed.rows.length;
  }

  compose(row: OutboxRow) {
    const line = changeLine(row);
    const intro =
      row.email_kind === 'new_item' ? 'A request is waiting for you in AdminEase.' : 'A decision was made on your request in AdminEase.';
    // The link opens the request itself (the web's /requests/<id>; signed out, sign-in first and then the request).
    const link = `${this.settings.publicUrl}${row.form_id ? requestPath(row.form_id) : '/'}`;
    return {
      from: this.settings.from,
      to: row.email,
      subject: row.title,
      text: `Hello ${row.first_name},\n\n${intro}\n\n${row.title}\n${line}\n\n${row.form_id ? 'Open the request' : 'Open AdminEase'}: ${link}\n`,
    };
  }

  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.running) await this.running.catch(() => undefined);
    this.transporter.close?.();
  }
}
