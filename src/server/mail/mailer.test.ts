import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createOutboxMailer } from './mailer';
import { confirmationMail } from './templates';

describe('the development outbox', () => {
  it('keeps each message as an .eml file and logs its subject and links', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const lines: string[] = [];
    const mailer = createOutboxMailer(dir, 'Ledger <no-reply@localhost>', (l) => lines.push(l));
    await mailer.send(confirmationMail('head@school.test', 'Sunrise <School>', 'http://localhost:5000/confirm-email?token=abc'));
    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toContain('Subject: Confirm your email for Sunrise <School>');
    expect(eml).toContain('To: head@school.test');
    expect(eml).toContain('Sunrise &lt;School&gt;'); // the HTML part escapes the name
    expect(lines[0]).toContain('Confirm your email for Sunrise <School>');
    expect(lines[0]).toContain('http://localhost:5000/confirm-email?token=abc');
  });
});
