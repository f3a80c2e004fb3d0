import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { gstinProblem, STATE_NAMES } from '../domain/invoices';

const WORKERS_NEED_POSTGRES =
  'WORKERS above 1 needs DATABASE_URL: the embedded database in DATA_DIR can be opened by one process only. Set DATABASE_URL to a PostgreSQL database, or leave WORKERS at 1';

const envSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1, 'PORT must be a port number').max(65535, 'PORT must be a port number').default(5000),
    DATA_DIR: z.string().min(1).default('./data'),
    WORKERS: z.coerce.number().int('WORKERS must be a whole number of app processes such as 2').min(1, 'WORKERS must be at least 1').max(64, 'WORKERS must be at most 64').default(1),
    DATABASE_POOL_SIZE: z.coerce
      .number()
      .int('DATABASE_POOL_SIZE must be a whole number of connections such as 5')
      .min(1, 'DATABASE_POOL_SIZE must be at least 1')
      .max(200, 'DATABASE_POOL_SIZE must be at most 200')
      .optional(),
    REPORT_BUILDS: z.coerce
      .number()
      .int('REPORT_BUILDS must be a whole number of report builds such as 1')
      .min(1, 'REPORT_BUILDS must be at least 1')
      .max(64, 'REPORT_BUILDS must be at most 64')
      .optional(),
    DATABASE_URL: z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
    APP_URL: z.string().url('APP_URL must be a full URL such as https://fees.example.in').optional(),
    SMTP_URL: z
      .string()
      .refine((v) => /^smtps?:\/\//.test(v), 'SMTP_URL must look like smtp://user:pass@host:587')
      .optional(),
    MAIL_FROM: z.string().min(3).default('School Ledger <no-reply@localhost>'),
    ADMIN_EMAIL: z.string().email('ADMIN_EMAIL must be an email address').optional(),
    ADMIN_PASSWORD: z.string().min(8, 'ADMIN_PASSWORD must be at least 8 characters').optional(),
    SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    ENCRYPTION_KEY: z.string().min(32, 'ENCRYPTION_KEY must be at least 32 characters').optional(),
    RAZORPAY_KEY_ID: z.string().regex(/^rzp_(test|live)_\w+$/, 'RAZORPAY_KEY_ID must look like rzp_test_… or rzp_live_…').optional(),
    RAZORPAY_KEY_SECRET: z.string().min(8, 'RAZORPAY_KEY_SECRET looks too short').optional(),
    RAZORPAY_WEBHOOK_SECRET: z.string().min(8, 'RAZORPAY_WEBHOOK_SECRET looks too short').optional(),
    RAZORPAY_API_URL: z.string().url('RAZORPAY_API_URL must be a full URL such as https://api.razorpay.com').optional(),
    PAYMENTS_PROVIDER: z
      .enum(['razorpay', 'sandbox'], { message: 'PAYMENTS_PROVIDER must be razorpay or sandbox' })
      .optional(),
    APP_VERSION: z.string().max(100, 'APP_VERSION is too long').optional(),
    INVOICE_PREFIX: z.string().regex(/^[A-Z0-9-]{1,10}$/, 'INVOICE_PREFIX must be 1-10 capital letters, digits or hyphens').default('SL'),
    SUPPLIER_NAME: z.string().trim().min(1).max(200).default('School Ledger'),
    SUPPLIER_ADDRESS: z.string().trim().max(500).default(''),
    SUPPLIER_STATE: z.enum(STATE_NAMES, { message: 'SUPPLIER_STATE must be an Indian state or union territory, spelt as in src/domain/invoices.ts (e.g. Jammu and Kashmir)' }).default('Jammu and Kashmir'),
    SUPPLIER_GSTIN: z.string().trim().toUpperCase().optional(),
    SUPPLIER_SAC: z.string().regex(/^\d{6}$/, 'SUPPLIER_SAC must be a 6-digit SAC code').default('998315'),
    MESSAGES_PROVIDER: z.enum(['outbox', 'gateways'], { message: 'MESSAGES_PROVIDER must be outbox or gateways' }).optional(),
    WHATSAPP_TOKEN: z.string().min(8, 'WHATSAPP_TOKEN looks too short').optional(),
    WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d{5,20}$/, 'WHATSAPP_PHONE_NUMBER_ID must be the digits of the phone number id').optional(),
    WHATSAPP_TEMPLATE: z.string().regex(/^[a-z0-9_]{1,512}$/, 'WHATSAPP_TEMPLATE must be the approved template name (lower case, digits, _)').optional(),
    WHATSAPP_TEMPLATE_LANGUAGE: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'WHATSAPP_TEMPLATE_LANGUAGE must be a code such as en or en_US').default('en'),
    WHATSAPP_API_URL: z.string().url('WHATSAPP_API_URL must be a full URL such as https://graph.facebook.com/v21.0').default('https://graph.facebook.com/v21.0'),
    WHATSAPP_APP_SECRET: z.string().min(8, 'WHATSAPP_APP_SECRET looks too short').optional(),
    WHATSAPP_VERIFY_TOKEN: z.string().min(8, 'WHATSAPP_VERIFY_TOKEN looks too short').optional(),
    SMS_API_URL: z.string().url('SMS_API_URL must be a full URL such as https://control.msg91.com/api/v5/flow').default('https://control.msg91.com/api/v5/flow'),
    SMS_API_KEY: z.string().min(8, 'SMS_API_KEY looks too short').optional(),
    SMS_SENDER_ID: z.string().regex(/^[A-Z]{6}$/, 'SMS_SENDER_ID must be the six capital letters of the DLT sender id (header)').optional(),
    SMS_DLT_TEMPLATE_ID: z.string().regex(/^\w{6,40}$/, 'SMS_DLT_TEMPLATE_ID must be the template id registered on DLT').optional(),
    SMS_DLT_ENTITY_ID: z.string().regex(/^\d{6,30}$/, 'SMS_DLT_ENTITY_ID must be the digits of the DLT principal entity id').optional(),
    SMS_WEBHOOK_TOKEN: z.string().min(16, 'SMS_WEBHOOK_TOKEN must be at least 16 characters').optional(),
    SERVE_WEB: z.enum(['true', 'false'], { message: 'SERVE_WEB must be true or false' }).default('true'),
    // one log line per request: off by default (the proxy in front keeps the access log, and at
    // 2,000 requests a second the lines cost the app); failed and slow requests are always logged
    LOG_REQUESTS: z.enum(['true', 'false'], { message: 'LOG_REQUESTS must be true or false' }).default('false'),
    TRUST_PROXY: z
      .string()
      .transform((v, ctx) => {
        const parsed = parseTrustProxy(v);
        if (parsed === null) {
          ctx.addIssue({ code: 'custom', message: TRUST_PROXY_MESSAGE });
          return z.NEVER;
        }
        return parsed;
      })
      .optional(),
  })
  .refine((v) => !v.SUPPLIER_GSTIN || gstinProblem(v.SUPPLIER_GSTIN, v.SUPPLIER_STATE) === null, {
    message: 'SUPPLIER_GSTIN is not a valid GSTIN of SUPPLIER_STATE',
    path: ['SUPPLIER_GSTIN'],
  })
  // decision 0023: the embedded database belongs to one process; several share only PostgreSQL (decision 0043)
  .refine((v) => v.WORKERS === 1 || Boolean(v.DATABASE_URL), {
    message: WORKERS_NEED_POSTGRES,
    path: ['WORKERS'],
  })
  .refine((v) => Boolean(v.ADMIN_EMAIL) === Boolean(v.ADMIN_PASSWORD), {
    message: 'Set ADMIN_EMAIL and ADMIN_PASSWORD together',
    path: ['ADMIN_PASSWORD'],
  })
  .refine((v) => Boolean(v.RAZORPAY_KEY_ID) === Boolean(v.RAZORPAY_KEY_SECRET), {
    message: 'Set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET together',
    path: ['RAZORPAY_KEY_SECRET'],
  })
  .refine((v) => v.PAYMENTS_PROVIDER !== 'razorpay' || Boolean(v.RAZORPAY_KEY_ID && v.RAZORPAY_KEY_SECRET), {
    message: 'PAYMENTS_PROVIDER=razorpay needs RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET',
    path: ['PAYMENTS_PROVIDER'],
  })
  .refine((v) => allOrNone(v.WHATSAPP_TOKEN, v.WHATSAPP_PHONE_NUMBER_ID, v.WHATSAPP_TEMPLATE), {
    message: 'Set WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID and WHATSAPP_TEMPLATE together',
    path: ['WHATSAPP_TEMPLATE'],
  })
  .refine((v) => allOrNone(v.SMS_API_KEY, v.SMS_SENDER_ID, v.SMS_DLT_TEMPLATE_ID), {
    message: 'Set SMS_API_KEY, SMS_SENDER_ID and SMS_DLT_TEMPLATE_ID together',
    path: ['SMS_DLT_TEMPLATE_ID'],
  })
  .refine((v) => v.MESSAGES_PROVIDER !== 'gateways' || Boolean(v.WHATSAPP_TOKEN || v.SMS_API_KEY), {
    message: 'MESSAGES_PROVIDER=gateways needs the WhatsApp settings (WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TEMPLATE), the SMS settings (SMS_API_KEY, SMS_SENDER_ID, SMS_DLT_TEMPLATE_ID), or both',
    path: ['MESSAGES_PROVIDER'],
  })
  // ruling 29: a live server never falls back to the sandbox (every plan free) because keys were forgotten
  .refine((v) => v.NODE_ENV !== 'production' || v.PAYMENTS_PROVIDER === 'sandbox' || Boolean(v.RAZORPAY_KEY_ID && v.RAZORPAY_KEY_SECRET), {
    message:
      'In production, set RAZORPAY_KEY_ID and RAZORPAY_KEY_SECRET for real payments, or PAYMENTS_PROVIDER=sandbox to run the test checkout on purpose',
    path: ['PAYMENTS_PROVIDER'],
  });

function allOrNone(...values: Array<string | undefined>): boolean {
  const set = values.filter(Boolean).length;
  return set === 0 || set === values.length;
}

const TRUST_PROXY_MESSAGE =
  'TRUST_PROXY must be the number of proxies in front of the app (such as 1) or a comma-separated list of their addresses or networks (such as 10.0.0.1,192.168.0.0/16)';

/** An address (`10.0.0.1`, `::1`) or a network (`10.0.0.0/8`, `fd00::/8`) with a prefix its family allows. */
function isAddressOrNetwork(text: string): boolean {
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * Which proxies may tell the app the client's address (X-Forwarded-For): a hop count, or the
 * proxies' addresses. Null when the text is neither.
 */
export function parseTrustProxy(text: string): number | string[] | null {
  const value = text.trim();
  if (/^\d{1,2}$/.test(value)) return Number(value);
  const entries = value.split(',').map((part) => part.trim());
  return entries.length > 0 && entries.every(isAddressOrNetwork) ? entries : null;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  /** how many app processes `npm start` runs on the port (node:cluster); above 1 only on PostgreSQL */
  workers: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections each app process keeps for its requests (DATABASE_POOL_SIZE; decision 0076) */
  databasePoolSize: number;
  /** whole-school report builds each app process runs at once; the rest wait their turn (REPORT_BUILDS; decision 0094) */
  reportBuilds: number;
  appUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  admin: { email: string; password: string } | undefined;
  /** which provider takes subscription payments: Razorpay with its keys, or the built-in sandbox (no money moves) */
  paymentsProvider: 'razorpay' | 'sandbox';
  /** Razorpay keys; set exactly when paymentsProvider is 'razorpay' */
  razorpay: { keyId: string; keySecret: string; webhookSecret: string | undefined } | undefined;
  /** Razorpay's API address (schools' own keys too); a test points it at a local fake server */
  razorpayApiUrl: string;
  sessionSecret: string;
  /** encrypts Aadhaar numbers at rest; losing it makes stored numbers unreadable */
  encryptionKey: string;
  isDevelopment: boolean;
  /**
   * Proxies whose X-Forwarded-For is believed (the client address of the audit log and sign-in
   * history): none by default, so a client cannot choose the address it is recorded under.
   */
  trustProxy: false | number | string[];
  /**
   * Development without a mail server: the forgot-password answer carries the reset link so a
   * newcomer can use it. Never with SMTP configured, so a deployment that forgot NODE_ENV does not
   * hand out reset links to anyone who asks.
   */
  revealResetTokens: boolean;
  /** build (when stale) and serve the web app; false runs the API alone */
  serveWeb: boolean;
  /** a log line for every request (LOG_REQUESTS=true); otherwise only failed (5xx) and slow ones */
  logRequests: boolean;
  /** what the portal's System tab names as the running version; package.json's when unset */
  appVersion: string | undefined;
  /** who issues the subscription tax invoices (ruling 33) and their number prefix */
  invoices: { prefix: string; supplier: { name: string; address: string; state: string; gstin: string | null; sac: string } };
  /** how reminders leave (decision 0040) */
  messages: MessagesConfig;
}

export interface MessagesConfig {
  /**
   * `outbox`: files in DATA_DIR/messages and the console (development, or chosen on purpose);
   * `gateways`: WhatsApp Cloud and/or the SMS gateway below; `none`: production with neither, where
   * reminders are refused with a message naming the settings (never queued and silently dropped).
   */
  provider: 'outbox' | 'gateways' | 'none';
  outboxDir: string;
  whatsapp: { token: string; phoneNumberId: string; template: string; language: string; apiUrl: string; appSecret: string | undefined; verifyToken: string | undefined } | undefined;
  sms: { apiUrl: string; apiKey: string; senderId: string; dltTemplateId: string; dltEntityId: string | undefined; webhookToken: string | undefined } | undefined;
}

export class ConfigError extends Error {}

/**
 * Connections to PostgreSQL for all app processes together: twice the cores and one, shared out
 * among the processes. Each statement is work for a core; more connections than that only make
 * PostgreSQL's backends take turns on the cores, which cost its CPU and the requests' p99 (decision 0076).
 */
export function defaultPoolSize(cores: number, workers: number): number {
  return Math.max(2, Math.ceil((2 * cores + 1) / workers));
}

/**
 * Whole-school report builds at once for all app processes together: half the cores, at least one
 * a process. A build keeps a core busy for as long as it runs, and the reports' requests come one
 * after another; with a build on every core, the counter's lookups, fee status and saves waited for
 * the cores behind them (decision 0094).
 */
export function defaultReportBuilds(cores: number, workers: number): number {
  return Math.max(1, Math.floor(cores / (2 * workers)));
}

/** Empty variables count as unset, so `PORT=` in a shell file does not break start-up. */
function cleanEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(cleanEnv(env));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'env'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  // an explicit PAYMENTS_PROVIDER wins; otherwise the keys decide (outside production, see the refinement above)
  const provider = e.PAYMENTS_PROVIDER ?? (e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET ? 'razorpay' : 'sandbox');
  const razorpay =
    provider === 'razorpay' && e.RAZORPAY_KEY_ID && e.RAZORPAY_KEY_SECRET
      ? { keyId: e.RAZORPAY_KEY_ID, keySecret: e.RAZORPAY_KEY_SECRET, webhookSecret: e.RAZORPAY_WEBHOOK_SECRET }
      : undefined;
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    workers: e.WORKERS,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE ?? defaultPoolSize(availableParallelism(), e.WORKERS),
    reportBuilds: e.REPORT_BUILDS ?? defaultReportBuilds(availableParallelism(), e.WORKERS),
    appUrl: (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL.toLowerCase(), password: e.ADMIN_PASSWORD } : undefined,
    paymentsProvider: provider,
    razorpay,
    razorpayApiUrl: (e.RAZORPAY_API_URL ?? 'https://api.razorpay.com').replace(/\/$/, ''),
    sessionSecret: e.SESSION_SECRET ?? persistentSecret(dataDir, 'session-secret'),
    encryptionKey: e.ENCRYPTION_KEY ?? persistentSecret(dataDir, 'encryption-key'),
    isDevelopment: e.NODE_ENV === 'development',
    trustProxy: e.TRUST_PROXY === undefined || e.TRUST_PROXY === 0 ? false : e.TRUST_PROXY,
    revealResetTokens: e.NODE_ENV === 'development' && !e.SMTP_URL,
    serveWeb: e.SERVE_WEB === 'true',
    logRequests: e.LOG_REQUESTS === 'true',
    appVersion: e.APP_VERSION,
    invoices: {
      prefix: e.INVOICE_PREFIX,
      supplier: { name: e.SUPPLIER_NAME, address: e.SUPPLIER_ADDRESS, state: e.SUPPLIER_STATE, gstin: e.SUPPLIER_GSTIN ?? null, sac: e.SUPPLIER_SAC },
    },
    messages: messagesConfig(e, dataDir),
  };
}

function messagesConfig(e: z.output<typeof envSchema>, dataDir: string): MessagesConfig {
  const whatsapp =
    e.WHATSAPP_TOKEN && e.WHATSAPP_PHONE_NUMBER_ID && e.WHATSAPP_TEMPLATE
      ? {
          token: e.WHATSAPP_TOKEN,
          phoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID,
          template: e.WHATSAPP_TEMPLATE,
          language: e.WHATSAPP_TEMPLATE_LANGUAGE,
          apiUrl: e.WHATSAPP_API_URL.replace(/\/$/, ''),
          appSecret: e.WHATSAPP_APP_SECRET,
          verifyToken: e.WHATSAPP_VERIFY_TOKEN,
        }
      : undefined;
  const sms =
    e.SMS_API_KEY && e.SMS_SENDER_ID && e.SMS_DLT_TEMPLATE_ID
      ? {
          apiUrl: e.SMS_API_URL,
          apiKey: e.SMS_API_KEY,
          senderId: e.SMS_SENDER_ID,
          dltTemplateId: e.SMS_DLT_TEMPLATE_ID,
          dltEntityId: e.SMS_DLT_ENTITY_ID,
          webhookToken: e.SMS_WEBHOOK_TOKEN,
        }
      : undefined;
  // an explicit choice wins; then configured gateways; the file outbox only off a live server
  const provider = e.MESSAGES_PROVIDER ?? (whatsapp || sms ? 'gateways' : e.NODE_ENV === 'production' ? 'none' : 'outbox');
  return { provider, outboxDir: path.join(dataDir, 'messages'), whatsapp, sms };
}

/** Without SESSION_SECRET (or ENCRYPTION_KEY), a random secret is made once and kept in DATA_DIR so it survives restarts. */
function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
