export const USAGE = `Usage: kopek [command]

Commands:
  serve                          Start the HTTP server (the default), with the renewal worker
                                 unless KOPEK_WORKER=off
  keys generate                  Print a new API key and its SHA-256 for the projects file
  sandbox-provider --port <p> [--ledger <file>] [--host <h>] [--latency-ms <ms>]
                                 Serve the sandbox provider over HTTP, its charges kept in
                                 the ledger file; projects use it with
                                 provider: { "kind": "http", "url": "http://127.0.0.1:<p>" }
  help                           Show this help (also --help, -h); kopek <command> --help
                                 shows one command's
  --version                      Print the version of kopek (@kopek/server)

Commands on the database at DATABASE_URL:
  worker                         Run only the renewal worker, no HTTP (as many as you like)
  migrate [--citus]              Apply pending migrations and say which; --citus then, on a
                                 Citus coordinator, distributes the tables by project
                                 (docs/scaling.md); run again, it does nothing
  projects create --name <name> [--display-name <text>] [--id <uuid>] [provider options]
                                 Create a project (the sandbox unless --provider); prints its
                                 id, and for a real provider the notification URL to give it.
                                 --display-name: the merchant's name payers see on the payment
                                 page, 1-100 characters (default: the project's name)
  projects update <id> [--name <name>] [--display-name <text>] [provider options]
                                 Rename a project or change its provider; options not given
                                 keep their value, the secret key included;
                                 --display-name "" shows the project's name again
  projects list                  List the projects (never their secrets), deleted ones marked
  projects delete <id> [--force] Delete a project that has no invoice, subscription, payment
                                 or refund, with everything it has; refused while it has one.
                                 --force keeps its money records (API.md 11.1) and marks it
                                 deleted: keys revoked, webhooks removed, subscriptions
                                 canceled now (no refund), every customer erased
  Provider options:
    --provider sandbox|http|yookassa|tbank
                                          The provider kind
    --stored-method-charge true|false     sandbox, http: charge stored methods (default true)
    --url <url>                           http: the provider service's base URL
    --shop-id <id>                        yookassa: the shop's id
    --secret-key-file <path>              yookassa: a file holding the secret key, read now
    --secret-key-env <NAME>               yookassa: an environment variable holding it
                                          (one of the two; the key is stored encrypted)
    --terminal-key <key>                  tbank: the terminal's TerminalKey
    --password-file <path>                tbank: a file holding the terminal password, read now
    --password-env <NAME>                 tbank: an environment variable holding it
                                          (one of the two; the password is stored encrypted)
    --stored-methods card,sbp             yookassa, tbank: methods the contract lets Kopek charge
                                          from a stored method (default card; tbank: card only)
    --save-without-payment true|false     yookassa, tbank: save a payer's new card with no payment
                                          (API.md 11.5; off by default, see the provider's README)
    --api-url <url>                       yookassa, tbank: another API address (an emulator)

  Seller options (projects create, projects update):
    --seller-legal-name <name>            the seller's legal name, shown to payers (optional;
                                          each --seller-… option given "" on update removes it)
    --seller-inn <ИНН>                    10 or 12 digits, check digits verified
    --seller-email <e-mail>               the seller's contact e-mail
    --seller-phone <+digits>              the seller's contact phone, as +79991234567
    --seller-offer-url <url>              the public offer, https://
    --seller-privacy-url <url>            the privacy policy, https://
  keys create --project <id>     Issue an API key; it is printed once and cannot be shown again
  keys revoke <key-id | sha256-prefix | key>
                                 Revoke a key at once, on every server using the database;
                                 named by its id, its sha256 or a prefix of it (as keys
                                 list prints it, at least 6 hex characters), or the key
  keys revoke -                  The same, read from standard input (keeps a key off the command line)
  keys rotate <key-id | sha256-prefix | key> [--grace <duration>]
                                 Issue a new key for the same project (printed once), then
                                 revoke the old one at once, or from the end of --grace on
                                 (90s, 15m, 2h, 7d; at most 30d): stored, the command returns
  keys list --project <id>       List a project's keys: ids, hash prefixes, created, revoked
  webhooks add --project <id> --url <url> [--events <type,…>] [--description <text>]
                                 Add a webhook endpoint (every event type unless --events
                                 names some); prints its whsec_ secret once
  webhooks list --project <id>   List a project's endpoints (never their secrets)
  webhooks update <endpoint-id> --project <id> [--url <url>] [--events <type,… | all>]
      [--description <text>] [--enabled true|false]
                                 Change an endpoint; --enabled false stops its deliveries
                                 (they wait), true starts them again
  webhooks rotate-secret <endpoint-id> --project <id>
                                 A new secret, printed once; the old one signs beside it
                                 for 24 h, so receivers switch with no downtime
  webhooks remove <endpoint-id> --project <id>
                                 Remove an endpoint and its pending deliveries
  webhooks deliveries <endpoint-id> --project <id> [--status delivered|retry|failed] [--limit <n>]
                                 Each attempt to deliver to it, newest first: event, outcome,
                                 HTTP status, duration, error
  events list --project <id> [--type <type>] [--limit <n>]
                                 The events webhooks carried (kept 30 days), newest first
  events redeliver <event-id> --project <id> [--endpoint <endpoint-id>]
                                 Queue an event again, due now, to one endpoint or to every
                                 enabled one that takes its type
  refunds create --project <id> --payment <id> [--amount <minor units>] [--reason <text>]
                                 Refund a succeeded payment (all that remains without
                                 --amount) as POST /v1/payments/{id}/refunds does; prints
                                 the refund (pending ones are settled by the worker)
  subscriptions cancel <subscription-id> --project <id> [--at-period-end | --undo]
                                 Cancel a subscription now, or at the end of its paid period
                                 (--at-period-end: no charge then), or undo that (--undo), as
                                 the API does; prints the subscription
  subscriptions pause <subscription-id> --project <id>
                                 Pause a subscription at the end of its paid period (no charge
                                 then), as POST /v1/subscriptions/{id}/pause; prints it
  subscriptions resume <subscription-id> --project <id>
                                 Undo a pause not yet in effect, or resume a paused subscription:
                                 charged at once from its saved method, as the API does
  subscriptions method-update <subscription-id> --project <id>
                                 A 24-hour link where the payer saves a new method (a refunded
                                 check), as POST /v1/subscriptions/{id}/method-update; prints it
  customers erase <customer-id> --project <id>
                                 Erase a customer's personal data (152-FZ) everywhere it is kept,
                                 as POST /v1/customers/{id}/erase; money records stay

Environment (serve, worker):
  HOST                  Address to listen on (default 127.0.0.1)
  PORT                  Port to listen on, 0-65535 (default 3000; 0 picks a free one)
  KOPEK_PROJECTS_FILE   JSON file of projects and key hashes, applied at start
                        (without it, memory storage gets a demo project and key)
  KOPEK_PUBLIC_URL      Base URL of payment links and of provider notification URLs
                        (default: where the server listens)
  KOPEK_RATE_LIMIT      Requests per second per API key (default 100, 0 = off)
  KOPEK_RATE_LIMIT_UNAUTHENTICATED  Failed authentications per client IP per minute
                        (default 60, 0 = off); past it the IP gets 429
  KOPEK_RATE_LIMIT_PUBLIC  Requests per client IP per minute to the payment page, provider
                        notifications and health (default 600, 0 = off)
  KOPEK_WEBHOOKS_ALLOW_LOCAL  on: webhooks may go to this machine, over http:// too
                        (development only; default off: https:// to public addresses)
  KOPEK_PROVIDERS_ALLOW_LOCAL  on: provider APIs (apiUrl, an http provider's url) may be on
                        this machine, over http:// too (development only, for emulators)
  REDIS_URL             Redis shared by all instances for the rate limits (default: the
                        PostgreSQL database when DATABASE_URL is set, else this process)
  LOG_LEVEL             fatal, error, warn, info, debug, trace or silent (default info)
  LOG_FORMAT            json (default: a JSON object a line) or pretty (readable, for development)
  DATABASE_URL          PostgreSQL URL (default: memory storage)
  KOPEK_ENCRYPTION_KEY  32 bytes in base64, for method tokens at rest (set it in production,
                        the same on every instance)
  KOPEK_ENCRYPTION_KEY_FILE  Where the key is kept, created if missing, when
                        KOPEK_ENCRYPTION_KEY is unset (default .kopek/encryption.key)
  KOPEK_ENCRYPTION_OLD_KEYS  Comma-separated retired keys, still accepted for decryption
  KOPEK_IDEMPOTENCY_LEASE_MS How long a request holds its idempotency key, 1-60000
                        (default 30000)
  KOPEK_IDEMPOTENCY_TTL_MS   How long idempotency keys are remembered, 1000-86400000
                        (default 86400000: 24 h)
  KOPEK_WORKER          on or off: the renewal worker inside serve (default on)
  KOPEK_METRICS         on or off: GET /metrics, Prometheus text format (default on)
  KOPEK_WORKER_INTERVAL_MS   How often the worker looks for due renewals, 10-3600000
                        (default 5000)
  KOPEK_DUNNING_RETRIES When a declined renewal is retried, counted from the first decline;
                        then the subscription is canceled (default 1d,3d,5d; units s, m, h, d)
  KOPEK_OUTAGE_RETRY    Retry after a provider outage, never counted as a decline (default 5m)
  KOPEK_SANDBOX_LEDGER_FILE  Testing aid: the sandbox's charges as a JSON-lines file
  KOPEK_SANDBOX_LATENCY_MS   Testing aid: delay of every sandbox answer (default 0)
  KOPEK_TEST_CLOCK_FILE Testing aid, only with NODE_ENV=test: the clock reads an ISO 8601
                        time from this file and runs on from it
`;
