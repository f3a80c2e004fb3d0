import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultPoolSize, defaultReportBuilds, loadConfig } from './config';

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

  it('runs one app process unless WORKERS says more, and several only on PostgreSQL (decision 0043)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    expect(loadConfig({ DATA_DIR: dir }).workers).toBe(1);
    expect(loadConfig({ DATA_DIR: dir, WORKERS: '3', DATABASE_URL: 'postgres://db/ledger' }).workers).toBe(3);
    expect(() => loadConfig({ DATA_DIR: dir, WORKERS: '2' })).toThrow(
      'WORKERS: WORKERS above 1 needs DATABASE_URL: the embedded database in DATA_DIR can be opened by one process only. Set DATABASE_URL to a PostgreSQL database, or leave WORKERS at 1',
    );
    expect(() => loadConfig({ DATA_DIR: dir, WORKERS: '0', DATABASE_URL: 'postgres://db/ledger' })).toThrow('WORKERS: WORKERS must be at least 1');
    expect(() => loadConfig({ DATA_DIR: dir, WORKERS: 'two', DATABASE_URL: 'postgres://db/ledger' })).toThrow(ConfigError);
  });

  it('keeps twice the cores and one PostgreSQL connections, shared out among the app processes, unless DATABASE_POOL_SIZE says (decision 0076)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const url = 'postgres://db/ledger';
    // the bench's machine: two cores for the app and PostgreSQL; 20 connections made p99 worse
    expect(defaultPoolSize(2, 1)).toBe(5);
    expect(defaultPoolSize(2, 2)).toBe(3);
    expect(defaultPoolSize(8, 1)).toBe(17);
    expect(defaultPoolSize(8, 4)).toBe(5);
    expect(defaultPoolSize(1, 8)).toBe(2);
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: url }).databasePoolSize).toBe(defaultPoolSize(availableParallelism(), 1));
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: url, WORKERS: '2' }).databasePoolSize).toBe(defaultPoolSize(availableParallelism(), 2));
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: url, DATABASE_POOL_SIZE: '12' }).databasePoolSize).toBe(12);
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: url, DATABASE_POOL_SIZE: '0' })).toThrow('DATABASE_POOL_SIZE: DATABASE_POOL_SIZE must be at least 1');
    expect(() => loadConfig({ DATA_DIR: dir, DATABASE_URL: url, DATABASE_POOL_SIZE: '2.5' })).toThrow(
      'DATABASE_POOL_SIZE: DATABASE_POOL_SIZE must be a whole number of connections such as 5',
    );
  });

  it('runs whole-school report builds on half the cores, at least one a process (decision 0094)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cfg-'));
    const url = 'postgres://db/ledger';
    // the bench's machine: one build at a time leaves a core to the counter; two took both
    expect(defaultReportBuilds(2, 1)).toBe(1);
    expect(defaultReportBuilds(1, 1)).toBe(1);
    expect(defaultReportBuilds(2, 2)).toBe(1);
    expect(defaultReportBuilds(8, 1)).toBe(4);
    expect(defaultReportBuilds(8, 2)).toBe(2);
    expect(defaultReportBuilds(8, 16)).toBe(1);
    expect(loadConfig({ DATA_DIR: dir }).reportBuilds).toBe(defaultReportBuilds(availableParallelism(), 1));
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: url, WORKERS: '2' }).reportBuilds).toBe(defaultReportBuilds(availableParallelism(), 2));
    expect(loadConfig({ DATA_DIR: dir, REPORT_BUILDS: '3' }).reportBuilds).toBe(3);
    expect(() => loadConfig({ DATA_DIR: dir, REPORT_BUILDS: '0' })).toThrow('REPORT_BUILDS: REPORT_BUILDS must be at least 1');
    expect(() => loadConfig({ DATA_DIR: dir, REPORT_BUILDS: 'two' })).toThrow('REPORT_BUILDS: ');
  });

  it('derives APP_URL from PORT unless given', () => {
    expect(loadConfig({ PORT: '8080', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) }).appUrl).toBe('http://localhost:8080');
    expect(loadConfig({ APP_URL: 'https://fees.example.in/', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) }).appUrl).toBe('https://fees.example.in');
  });

  it('production without Razorpay keys silently uses the sandbox: now it refuses to start unless PAYMENTS_PROVIDER=sandbox is set explicitly', () => {
    const live = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) };
    let message = '';
    try {
      loadConfig(live);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    expect(message).toContain('RAZORPAY_KEY_ID');
    expect(message).toContain('RAZORPAY_KEY_SECRET');
    expect(message).toContain('PAYMENTS_PROVIDER=sandbox');
    expect(loadConfig({ ...live, PAYMENTS_PROVIDER: 'sandbox' }).paymentsProvider).toBe('sandbox');
    const keyed = loadConfig({ ...live, RAZORPAY_KEY_ID: 'rzp_live_abc123', RAZORPAY_KEY_SECRET: 'secret_xyz_123' });
    expect(keyed.paymentsProvider).toBe('razorpay');
    expect(keyed.razorpay?.keyId).toBe('rzp_live_abc123');
  });

  it('keeps the sandbox as the default in development and test, and refuses PAYMENTS_PROVIDER=razorpay without keys', () => {
    const dev = { SESSION_SECRET: 'x'.repeat(32), ENCRYPTION_KEY: 'y'.repeat(32) };
    expect(loadConfig(dev).paymentsProvider).toBe('sandbox');
    expect(loadConfig({ ...dev, NODE_ENV: 'test' }).paymentsProvider).toBe('sandbox');
    expect(() => loadConfig({ ...dev, PAYMENTS_PROVIDER: 'razorpay' })).toThrow('PAYMENTS_PROVIDER=razorpay needs RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET');
    expect(() => loadConfig({ ...dev, PAYMENTS_PROVIDER: 'stripe' })).toThrow('PAYMENTS_PROVIDER must be razorpay or sandbox');
    // chosen explicitly, the sandbox wins over keys (a staging server)
    expect(loadConfig({ ...dev, PAYMENTS_PROVIDER: 'sandbox', RAZORPAY_KEY_ID: 'rzp_test_abc', RAZORPAY_KEY_SECRET: 'secret_xyz_1' })).toMatchObject({
      paymentsProvider: 'sandbox',
      razorpay: undefined,
    });
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
