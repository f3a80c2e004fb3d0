import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminRoutes } from './admin/routes';
import { invoiceAttachment } from './invoices/invoice-pdf';
import { ServerErrorCounter } from './admin/request-stats';
import { portalRoutes } from './admin/portal-routes';
import { adminSubscriptionRoutes } from './admin/subscription-routes';
import { billingRoutes } from './billing/routes';
import { planAdminRoutes } from './plans/admin-routes';
import { registerAuthContext } from './auth/context';
import { authRoutes } from './auth/routes';
import { Throttle } from './auth/throttle';
import { TokenSigner } from './auth/tokens';
import type { Clock } from './clock';
import type { Config } from './config';
import { FieldCipher } from './lib/crypto';
import { registerSecurityHeaders } from './lib/security-headers';
import type { Db } from './db/client';
import { apiNotFound, BODY_LIMIT_BYTES, registerErrorHandler } from './lib/errors';
import { errorForLog, requestForLog } from './lib/log';
import { registerNoStore } from './lib/no-store';
import { validatorCompiler } from './lib/validation';
import type { Mailer } from './mail/mailer';
import { MailWorker, type MailWorkerOptions } from './mail/outbox';
import { createMessageProvider } from './messages/create';
import { MessageWorker, type MessageWorkerOptions } from './messages/outbox';
import type { MessageProvider } from './messages/provider';
import { messageWebhookRoutes } from './messages/webhook-routes';
import { reminderRoutes } from './reminders/routes';
import { ReminderScheduler } from './reminders/schedule';
import { PositionsKeeper } from './stats/positions-keeper';
import { createPaymentProvider } from './payments/create';
import type { PaymentProvider } from './payments/provider';
import { paymentRoutes } from './payments/routes';
import { paymentLinkRoutes } from './payment-links/routes';
import { publicLinkRoutes } from './payment-links/public-routes';
import { payingRoutes } from './online-payments/public-routes';
import { creditRoutes } from './online-payments/credit';
import { upiConfirmationRoutes } from './online-payments/upi-routes';
import { onlinePaymentRoutes } from './online-payments/reconcile-routes';
import { planRoutes } from './plans/routes';
import { schoolRoutes } from './schools/routes';
import { feeStructureRoutes } from './fee-structures/routes';
import { feeRoutes } from './fees/routes';
import { passoutRoutes } from './passouts/routes';
import { resultRoutes } from './results/routes';
import { sessionRoutes } from './sessions/routes';
import { sessionStartRoutes } from './sessions/start-routes';
import { studentRoutes } from './students/routes';
import { expenseRoutes } from './expenses/routes';
import { exportRoutes } from './exports/routes';
import { onboardingRoutes } from './onboarding/routes';
import { staffRoutes } from './staff/routes';
import { cashRoutes } from './cash/routes';
import { officeRoutes } from './office/routes';
import { auditRoutes } from './staff/audit-routes';
import { registerDataVersions } from './stats/versions';
import { statsRoutes } from './stats/routes';
import { reportRoutes } from './reports/routes';
import { openingRoutes } from './opening/routes';
import { feePolicyRoutes } from './policy/routes';
import { serveWeb, spaNotFound } from './web/static';

export interface AppDeps {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  config: Config;
  clock: Clock;
  mailer: Mailer;
  tokens: TokenSigner;
  /** attempt counters for sign-in and recovery mail (decision 0016) */
  throttle: Throttle;
  cipher: FieldCipher;
  payments: PaymentProvider;
  /** where reminders leave: the development outbox, WhatsApp Cloud and/or the SMS gateway (decision 0040) */
  messages: MessageProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** sends the mail outbox in the background; started when the app is ready, stopped on close */
    mailWorker: MailWorker;
    /** 5xx answers of the last hour, for the System tab (decision 0035) */
    serverErrors: ServerErrorCounter;
    /** sends the message outbox (reminders) in the background, like mailWorker */
    messageWorker: MessageWorker;
    /** runs the schools' monthly reminder schedules */
    reminderScheduler: ReminderScheduler;
    /** builds each school's whole-school rows for a new month in the background (decision 0071) */
    positionsKeeper: PositionsKeeper;
  }
}


export interface BuildOptions {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  config: Config;
  clock: Clock;
  mailer: Mailer;
  logger?: FastifyServerOptions['logger'];
  /** defaults to Razorpay when configured, else the sandbox */
  payments?: PaymentProvider;
  /** serve the built web app with the client-route fallback (off in API tests) */
  web?: boolean;
  /**
   * The outbox sender's settings. `start: false` keeps it idle so a test can drive it with
   * `app.mailWorker.runOnce()`.
   */
  mailWorker?: { start?: boolean } & Partial<Pick<MailWorkerOptions, 'pollMs' | 'retryDelaysMs' | 'sendTimeoutMs'>>;
  /** defaults to what the configuration asks for (MESSAGES_PROVIDER) */
  messages?: MessageProvider;
  /** the message sender's settings; `start: false` leaves it (and the reminder schedule) to the test */
  messageWorker?: { start?: boolean } & Partial<Pick<MessageWorkerOptions, 'pollMs' | 'retryDelaysMs' | 'sendTimeoutMs'>>;
  /** the month's background build of the whole-school rows (decision 0071); `start: false` leaves it to the test */
  positionsKeeper?: { start?: boolean };
}

/** Content security policy: our own bundle, plus the payment provider's checkout script and frames. */
const PAYMENT_HOSTS = ['https://checkout.razorpay.com', 'https://api.razorpay.com'];

/** A hop count trusts that many proxies nearest the app; a list trusts those addresses and networks. */
function trustedProxies(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}

/** A request that takes this long is logged even when requests are not (LOG_REQUESTS). */
const SLOW_REQUEST_MS = 1_000;

/** Answers up to this size are compressed in one synchronous call, larger ones as a stream (decision 0065). */
export const SYNC_COMPRESS_BYTES = 256 * 1024;

/**
 * Brotli's quality for the API's answers: 2, not the library's 4, which cost twice the CPU for 5-8%
 * fewer bytes (a page of students 3.6 KB against 3.9 KB); the web app's files keep quality 11, made
 * at build time (decisions 0067, 0075).
 */
const BROTLI_QUALITY = 2;

/** Whatever logger is asked for writes requests without query strings and errors without SQL parameters. */
function withSafeSerializers(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = typeof logger === 'object' ? logger : {};
  return { ...base, serializers: { ...base.serializers, req: requestForLog as never, err: errorForLog } };
}

export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withSafeSerializers(options.logger),
    // Fastify's two lines per request only when asked for (LOG_REQUESTS); see the onResponse hook below
    logController: new LogController({ disableRequestLogging: !options.config.logRequests }),
    // larger only where a route says so (the bulk student import)
    bodyLimit: BODY_LIMIT_BYTES,
    // off unless TRUST_PROXY names the proxies: otherwise anyone could choose the address they are recorded under
    trustProxy: trustedProxies(options.config.trustProxy),
    ajv: undefined,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorate('deps', {
    db: options.db,
    dbKind: options.dbKind,
    config: options.config,
    clock: options.clock,
    mailer: options.mailer,
    tokens: new TokenSigner(options.config.sessionSecret),
    throttle: new Throttle(options.db, options.clock),
    cipher: new FieldCipher(options.config.encryptionKey),
    payments: options.payments ?? createPaymentProvider(options.config),
    messages: options.messages ?? createMessageProvider(options.config),
  } satisfies AppDeps);

  registerErrorHandler(app);

  const serverErrors = new ServerErrorCounter();
  app.decorate('serverErrors', serverErrors);
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode >= 500) serverErrors.record(options.clock.now());
    // without the per-request lines, a failed or slow request still leaves one
    if (!options.config.logRequests && (reply.statusCode >= 500 || reply.elapsedTime >= SLOW_REQUEST_MS)) {
      const level = reply.statusCode >= 500 ? 'error' : 'warn';
      request.log[level]({ req: request, statusCode: reply.statusCode, responseTime: Math.round(reply.elapsedTime) }, reply.statusCode >= 500 ? 'request failed' : 'slow request');
    }
  });

  const { start: startMailWorker = true, ...workerOptions } = options.mailWorker ?? {};
  const mailWorker = new MailWorker({
    db: options.db,
    mailer: options.mailer,
    clock: options.clock,
    attachment: (ref) => invoiceAttachment(options.db, ref),
    log: app.log.child({ component: 'mail-worker' }),
    ...workerOptions,
  });
  app.decorate('mailWorker', mailWorker);
  // a request's transaction has committed by the time its response is sent: mail it queued is due now
  app.addHook('onResponse', async () => mailWorker.nudgeIfQueued());
  if (startMailWorker) app.addHook('onReady', async () => mailWorker.start());
  app.addHook('onClose', async () => mailWorker.stop());

  const { start: startMessageWorker = true, ...messageWorkerOptions } = options.messageWorker ?? {};
  const messageWorker = new MessageWorker({
    db: options.db,
    provider: app.deps.messages,
    clock: options.clock,
    log: app.log.child({ component: 'message-worker' }),
    ...messageWorkerOptions,
  });
  const reminderScheduler = new ReminderScheduler(options.db, app.deps.messages, options.clock, () => messageWorker.nudge(), app.log.child({ component: 'reminder-schedule' }));
  app.decorate('messageWorker', messageWorker);
  app.decorate('reminderScheduler', reminderScheduler);
  app.addHook('onResponse', async () => messageWorker.nudgeIfQueued());
  if (startMessageWorker) {
    app.addHook('onReady', async () => {
      messageWorker.start();
      reminderScheduler.start();
    });
  }
  app.addHook('onReady', async () => {
    // ruling 31's "failures visible": a live server that cannot send reminders says so at every start
    if (options.config.messages.provider === 'none') {
      app.log.warn(
        'Reminders are OFF: no WhatsApp or SMS settings (WHATSAPP_TOKEN, WHATSAPP_PHONE_NUMBER_ID, WHATSAPP_TEMPLATE or SMS_API_KEY, SMS_SENDER_ID, SMS_DLT_TEMPLATE_ID). Sending a reminder is refused until they are set.',
      );
    }
  });
  app.addHook('onClose', async () => {
    await reminderScheduler.stop();
    await messageWorker.stop();
  });

  const positionsKeeper = new PositionsKeeper(options.db, options.clock, app.log.child({ component: 'positions-keeper' }));
  app.decorate('positionsKeeper', positionsKeeper);
  if (options.positionsKeeper?.start !== false) app.addHook('onReady', async () => positionsKeeper.start());
  app.addHook('onClose', async () => positionsKeeper.stop());

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...PAYMENT_HOSTS],
        frameSrc: ["'self'", ...PAYMENT_HOSTS],
        connectSrc: ["'self'", ...PAYMENT_HOSTS],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  // a screen's JSON (a page of students 38 KB, fee status 19 KB, a 60,000-student roster 207 KB) is
  // compressed in one synchronous call: the library's stream path, its default above 8 KB on two
  // cores, cost 0.8 ms of CPU per fee status against 0.1 ms (decision 0065); reports and downloads
  // larger than this still stream, so the event loop never waits on a big one
  await app.register(compress, {
    global: true,
    threshold: 1024,
    syncThreshold: SYNC_COMPRESS_BYTES,
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'School Ledger API',
        description:
          'Fees, receipts, students, expenses, reports and results for schools. Amounts are rupees as decimal strings with two places ("1500.00"). School routes take the school from the bearer token, never from the request.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  registerAuthContext(app);
  registerNoStore(app);
  registerDataVersions(app);

  await app.register(authRoutes);
  await app.register(planRoutes);
  await app.register(schoolRoutes);
  await app.register(adminRoutes);
  await app.register(portalRoutes);
  await app.register(adminSubscriptionRoutes);
  await app.register(planAdminRoutes);
  await app.register(billingRoutes);
  await app.register(paymentRoutes);
  await app.register(sessionRoutes);
  await app.register(sessionStartRoutes);
  await app.register(studentRoutes);
  await app.register(feeStructureRoutes);
  await app.register(resultRoutes);
  await app.register(expenseRoutes);
  await app.register(statsRoutes);
  await app.register(reportRoutes);
  await app.register(feeRoutes);
  await app.register(passoutRoutes);
  await app.register(openingRoutes);
  await app.register(feePolicyRoutes);
  await app.register(reminderRoutes);
  await app.register(messageWebhookRoutes);
  await app.register(paymentLinkRoutes);
  await app.register(publicLinkRoutes);
  await app.register(payingRoutes);
  await app.register(creditRoutes);
  await app.register(upiConfirmationRoutes);
  await app.register(onlinePaymentRoutes);
  await app.register(exportRoutes);
  await app.register(onboardingRoutes);
  await app.register(staffRoutes);
  await app.register(cashRoutes);
  await app.register(officeRoutes);
  await app.register(auditRoutes);

  app.get('/api/health', { schema: { hide: true } }, async () => ({ ok: true }));

  if (options.web) {
    await serveWeb(app);
    app.setNotFoundHandler(spaNotFound);
  } else {
    app.setNotFoundHandler(apiNotFound);
  }
  return app;
}
