import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('configuration from the environment', () => {
  it('has working defaults and keeps a generated secret in DATA_DIR', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(5000);
    expect(config.appUrl).toBe('http://localhost:5000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.sessionSecret).toBe(readFileSync(path.join(dir, 'session-secret'), 'utf8'));
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(config.sessionSecret);
    expect(config.encryptionKey).not.toBe(config.sessionSecret);
  });

  it('explains every wrong value at start', () => {
    expect(() => loadConfig({ PORT: 'abc', DATABASE_URL: 'mysql://x', ADMIN_EMAIL: 'a@b.test', DATA_DIR: tmpdir() })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: '70000', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail', ADMIN_EMAIL: 'a@b.test', SESSION_SECRET: 'short' });
    } catch (error) {
      const text = (error as Error).message;
      expect(text).toContain('PORT: PORT must be a port number');
      expect(text).toContain('DATABASE_URL: DATABASE_URL must start with postgres:// or postgresql://');
      expect(text).toContain('SMTP_URL: SMTP_URL must look like smtp://user:pass@host:587');
      expect(text).toContain('SESSION_SECRET: SESSION_SECRET must be at least 32 characters');
      expect(text).toContain('ADMIN_PASSWORD: Set ADMIN_EMAIL and ADMIN_PASSWORD together');
    }
  });

  it('derives APP_URL from PORT unless given', () => {
    expect(loadConfig({ PORT: '8080', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) }).appUrl).toBe('http://localhost:8080');
    expect(loadConfig({ APP_URL: 'https://fees.example.in/', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) }).appUrl).toBe('https://fees.example.in');
  });

  it('trusts no proxy unless TRUST_PROXY names them, and explains a wrong value', () => {
    const base = { SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) };
    expect(loadConfig(base).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ ...base, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ ...base, TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8' }).trustProxy).toEqual(['10.0.0.1', '192.168.0.0/16', 'fd00::/8']);
    for (const wrong of ['true', 'proxy.local', '10.0.0.0/33', '10.0.0.1,', '1.2.3']) {
      expect(() => loadConfig({ ...base, TRUST_PROXY: wrong }), wrong).toThrow(
        'TRUST_PROXY: TRUST_PROXY must be the number of proxies in front of the app (such as 1) or a comma-separated list of their addresses or networks (such as 10.0.0.1,192.168.0.0/16)',
      );
    }
  });
});
