import { access, mkdir, rename, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer, { type Transporter } from 'nodemailer';
import { translate } from '@lamella/i18n';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly transport: 'smtp' | 'files';
  send(message: MailMessage): Promise<void>;
  ping(): Promise<boolean>;
}

/**
 * Sends through SMTP when `smtpUrl` is set; otherwise writes each message as an .eml file into `mailDir`
 * (and logs where), so a fresh machine needs no mail server.
 */
export function createMailer(opts: { smtpUrl: string | null; mailDir: string; from: string; log?: (msg: string) => void }): Mailer {
  if (opts.smtpUrl) {
    const transporter: Transporter = nodemailer.createTransport(opts.smtpUrl);
    return {
      transport: 'smtp',
      async send(m) {
        await transporter.sendMail({ from: opts.from, ...m });
      },
      async ping() {
        return transporter.verify();
      },
    };
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    transport: 'files',
    async send(m) {
      const info = await transporter.sendMail({ from: opts.from, ...m });
      await mkdir(opts.mailDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      const tmp = join(opts.mailDir, `.${name}.tmp`);
      await writeFile(tmp, info.message as Buffer);
      await rename(tmp, join(opts.mailDir, name));
      opts.log?.(`mail to ${m.to} written to ${join(opts.mailDir, name)}`);
    },
    async ping() {
      await mkdir(opts.mailDir, { recursive: true });
      await access(opts.mailDir, constants.W_OK);
      return true;
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A templated mail in the recipient's language: `mail.<template>.subject|greeting|body|action|footer` from the
 * translations, with a call-to-action link.
 */
export function renderMail(template: string, lng: string, vars: { name: string; link: string } & Record<string, string>): Omit<MailMessage, 'to'> {
  const t = (k: string) => translate(lng, `mail.${template}.${k}`, vars);
  const greeting = translate(lng, 'mail.greeting', vars);
  const footer = translate(lng, 'mail.footer', vars);
  const text = `${greeting}\n\n${t('body')}\n\n${t('action')}: ${vars.link}\n\n${footer}\n`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#1a1b1e">
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(t('body'))}</p>
<p><a href="${escapeHtml(vars.link)}" style="background:#1c7ed6;color:#fff;padding:10px 16px;border-radius:4px;text-decoration:none">${escapeHtml(t('action'))}</a></p>
<p style="font-size:12px;color:#666">${escapeHtml(vars.link)}</p><p style="font-size:12px;color:#666">${escapeHtml(footer)}</p>
</body></html>`;
  return { subject: t('subject'), text, html };
}
