// Optional e-mail of notifications (nodemailer): the owner on a final decision, an approver on a new item at their
// stage. Off unless SMTP is configured; then notifications that merit an e-mail are queued in their own row
// (email_state) and any instance sends them, claiming rows with SKIP LOCKED so each goes out once.
import nodemailer, { type Mail } from 'nodemailer';
import type { MailSettings } from '../config.js';
import type { Db } from '../db/pool.js';
import {
  type MailContext,
  OUTBOX_COLUMNS,
  type OutboxRow,
  type OutgoingMail,
  notificationMail,
  preferencesOf,
  routeByPreferences,
  runDailyDigest,
} from '../email/compose.js';
import type { HubLogger } from './hub.js';

/**
 * The SMTP settings (config.ts reads them: SMTP_URL, or SMTP_HOST with SMTP_PORT, SMTP_USER, SMTP_PASSWORD and
 * SMTP_SECURE; MAIL_FROM; ADMINEASE_PUBLIC_URL for the links). Without any, config.mail is null and nothing is sent.
 * What each e-mail says, the recipient's choices and the daily digest are src/server/email/'s (docs/email.md).
 */
export type { MailSettings } from '../config.js';

/** Attempts per e-mail before it is marked failed. */
const MAX_ATTEMPTS = 5;
/** E-mails about changes older than this are not sent any more (e.g. after a long SMTP outage). */
const MAX_AGE = '1 day';

export class Mailer {
  private readonly transporter: Mail<any, any>;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  private readonly ctx: MailContext;

  constructor(
    private readonly db: Db,
    private readonly settings: MailSettings,
    private readonly log: HubLogger,
    linkKey: Buffer,
    private readonly pollMs = 10_000,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.transporter = nodemailer.createTransport(settings.transport as any);
    this.ctx = { db, settings, linkKey };
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

  /** Claims up to 20 queued e-mails and sends them (or holds them for the digest); returns how many were claimed. */
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
        RETURNING ${OUTBOX_COLUMNS}`,
    );
    for (const row of claimed.rows) {
      try {
        // The recipient's settings: this kind of e-mail off, or held for the daily digest.
        const route = routeByPreferences(row.email_kind, preferencesOf(row));
        if (route !== 'send') {
          await this.db.query(`UPDATE notifications SET email_state = $2, email_attempts = email_attempts - 1 WHERE id = $1`, [
            row.id,
            route,
          ]);
          continue;
        }
        const mail = await notificationMail(this.ctx, row, this.now());
        if (!mail) {
          // Moot by now (the request is gone, or someone already acted on the item).
          await this.db.query(`UPDATE notifications SET email_state = 'skipped' WHERE id = $1`, [row.id]);
          continue;
        }
        await this.send(mail);
        await this.db.query(`UPDATE notifications SET email_state = 'sent', emailed_at = now() WHERE id = $1`, [row.id]);
      } catch (err) {
        const failed = row.email_attempts >= MAX_ATTEMPTS;
        this.log.warn({ err: (err as Error).message, notification: row.id, attempt: row.email_attempts }, 'notification e-mail not sent');
        await this.db.query(`UPDATE notifications SET email_state = $2 WHERE id = $1`, [row.id, failed ? 'failed' : 'queued']);
      }
    }
    return claimed.rows.length;
  }

  /** Sends one composed e-mail through the SMTP transport. */
  send(mail: OutgoingMail) {
    return this.transporter.sendMail({ from: this.settings.from, to: mail.to, subject: mail.subject, html: mail.html, text: mail.text });
  }

  /**
   * The daily digest of `now`'s organisation day (the scheduler's daily job runs it once across instances; a second
   * run the same day, on any instance, sends nothing: email_digest_runs).
   */
  digest(now: Date = this.now()): Promise<number | null> {
    return runDailyDigest(this.ctx, (mail) => this.send(mail), now, this.log);
  }

  async close() {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.running) await this.running.catch(() => undefined);
    this.transporter.close?.();
  }
}
