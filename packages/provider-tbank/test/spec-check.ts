import { readFileSync } from "node:fs";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

// T-Bank's OpenAPI document v1.80 ([T], test/spec/README.md) as the judge of every request the adapter
// sends to the emulator, and of every answer and notification the emulator makes. OpenAPI 3.0's schemas
// are JSON Schema with extras: `nullable` (Ajv knows it), `example`, `x-…` and prose keywords, which
// `strict: false` lets pass instead of refusing the document.

type Json = Record<string, unknown>;
const spec = JSON.parse(readFileSync(new URL("./spec/openapi.json", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, Json>>;
  tags: { name: string; description?: string }[];
};

const ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false });
// ajv-formats is CommonJS: under Node's ESM its function is the module's `default`.
addFormats.default(ajv);
// [T] writes AddAccountQr's RedirectDueDate as format "datatime": the same date-time, misspelt.
ajv.addFormat("datatime", true);
ajv.addSchema(spec as unknown as Json, "tbank");

/**
 * Where [T] contradicts itself or its own prose: the emulator and the adapter follow one side, and the
 * check does not hold them to the other. `path` is the JSON pointer of the value, as a pattern.
 */
export const KNOWN_CONTRADICTIONS: readonly {
  readonly where: string;
  readonly path: RegExp;
  readonly keyword: string;
  readonly why: string;
}[] = [
  {
    where: "response GetQr",
    path: /^$/,
    keyword: "required",
    why: "QrResponse_FULL requires RequestKey, which its own description says is sent only when binding and paying at once",
  },
  {
    where: "request GetQr",
    path: /^\/PaymentId$/,
    keyword: "type",
    why: "GetQr types PaymentId an integer and says the request works with a string too; Init and GetState answer it as a string",
  },
  ...["response AddAccountQr", "request GetAddAccountQrState", "response GetAddAccountQrState"].map(
    (where) => ({
      where,
      path: /^\/RequestKey$/,
      keyword: "type",
      why: "AddAccountQrResponse types RequestKey a number, and its example is a UUID, as NotificationQr's format is",
    }),
  ),
  {
    where: "notification NotificationQr",
    path: /^\/RequestKey$/,
    keyword: "format",
    why: "NotificationQr writes RequestKey as a UUID; AddAccountQrResponse and GetAddAccountQrState type it a number (example 211258)",
  },
  {
    where: "request receipt",
    path: /^\/Items\/[0-9]+\/Tax$/,
    keyword: "enum",
    why: "vat22 and vat122 (VAT 22% from 2026-01-01, law 425-FZ) came after v1.80 of 2025-09; T-Bank's current clients send them (receipt-mapping.ts)",
  },
];

const pointer = (path: string) => `tbank#/paths/${path.replaceAll("~", "~0").replaceAll("/", "~1")}/post`;

const compiled = new Map<string, ValidateFunction>();
function validatorOf(ref: string): ValidateFunction {
  let validate = compiled.get(ref);
  if (validate === undefined) {
    validate = ajv.compile({ $ref: ref });
    compiled.set(ref, validate);
  }
  return validate;
}

/** The error codes of [T]'s table ("Коды ошибок"): an emulated refusal names one of these, or none at all. */
export const TBANK_ERROR_CODES: ReadonlySet<string> = new Set(
  [
    ...(spec.tags.find((tag) => tag.name === "Коды ошибок")?.description ?? "").matchAll(
      /^\|\s*([0-9]+)\s*\|/gm,
    ),
  ].map((match) => match[1] ?? ""),
);

// A refusal ([T] has one answer schema per method, written for success): the envelope's fields as the
// method's answer types them, an ErrorCode from the table, nothing required but Success and ErrorCode.
const refusal = ajv.compile({
  type: "object",
  required: ["Success", "ErrorCode"],
  properties: {
    Success: { const: false },
    ErrorCode: { type: "string", maxLength: 20 },
    Message: { type: "string", maxLength: 255 },
    Details: { type: "string" },
  },
});

function problems(where: string, validate: ValidateFunction, value: unknown, skip?: RegExp): string[] {
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .filter(
      (error: ErrorObject) =>
        !(skip?.test(error.instancePath) ?? false) &&
        !KNOWN_CONTRADICTIONS.some(
          (known) =>
            known.where === where && known.path.test(error.instancePath) && known.keyword === error.keyword,
        ),
    )
    .map((error) => `${where}${error.instancePath} ${error.message ?? error.keyword}`);
}

const schemaRef = (name: string) => `tbank#/components/schemas/${name}`;

/**
 * `Receipt` and `DATA` are each a `oneOf` in [T]: `Receipt_FFD_105` | `Receipt_FFD_12`, told apart by
 * `FfdVersion` (default 1.05); `DATA` of `Common` | `T-Pay` | `LongPay`, none with a required field, so
 * any object matches all three and `oneOf` never holds. Each is checked against the one it is:
 * `FfdVersion`'s receipt, and `Common` (where `OperationInitiatorType` is) for `DATA`.
 */
function nestedProblems(body: unknown): string[] {
  if (typeof body !== "object" || body === null) return [];
  const { Receipt, DATA } = body as Json;
  const found: string[] = [];
  if (typeof Receipt === "object" && Receipt !== null) {
    const ffd12 = (Receipt as Json).FfdVersion === "1.2";
    found.push(
      ...problems(
        "request receipt",
        validatorOf(schemaRef(ffd12 ? "Receipt_FFD_12" : "Receipt_FFD_105")),
        Receipt,
      ),
    );
  }
  if (typeof DATA === "object" && DATA !== null)
    found.push(...problems("request DATA", validatorOf(schemaRef("Common")), DATA));
  return found;
}

/** Why a request to `/v2/{method}` is not one [T] describes (empty: it is). */
export function requestProblems(method: string, body: unknown): string[] {
  const path = `/v2/${method}`;
  if (spec.paths[path]?.post === undefined) return [`${method}: no such method in [T]`];
  const schema = validatorOf(`${pointer(path)}/requestBody/content/application~1json/schema`);
  return [...problems(`request ${method}`, schema, body, /^\/(Receipt|DATA)(\/|$)/), ...nestedProblems(body)];
}

/** Why an answer to `/v2/{method}` is not one [T] describes: a success by the method's schema, a refusal by the envelope. */
export function answerProblems(method: string, body: unknown): string[] {
  const path = `/v2/${method}`;
  const failed = typeof body === "object" && body !== null && (body as Json).Success === false;
  if (failed) {
    const code = String((body as Json).ErrorCode);
    const unknown = TBANK_ERROR_CODES.has(code)
      ? []
      : [`response ${method}: ErrorCode ${code} is not in [T]'s table`];
    return [...problems(`response ${method}`, refusal, body), ...unknown];
  }
  return problems(
    `response ${method}`,
    validatorOf(`${pointer(path)}/responses/200/content/application~1json/schema`),
    body,
  );
}

/**
 * Why a notification is not one [T] describes: an account binding's (NotificationQr, always with its
 * `NotificationType`), a card binding's (NotificationAddCard: a `RequestKey` and no `NotificationType`) or a payment's.
 */
export function notificationProblems(body: Json): string[] {
  const binding = "NotificationType" in body ? "NotificationQr" : "NotificationAddCard";
  const schema = "RequestKey" in body ? binding : "NotificationPayment";
  return problems(`notification ${schema}`, validatorOf(schemaRef(schema)), body);
}
