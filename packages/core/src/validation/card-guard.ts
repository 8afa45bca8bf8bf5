/** Whether a string of digits passes the Luhn check that every card number's last digit satisfies. */
export function luhnValid(digits: string): boolean {
  if (!/^[0-9]+$/.test(digits)) return false;
  return luhnSum(digits, 0, digits.length) % 10 === 0;
}

// Sums the digits of text[start, end) from the right, doubling every second one; non-digits are skipped
// so a window can be checked in place, separators and all.
function luhnSum(text: string, start: number, end: number): number {
  let sum = 0;
  let double = false;
  for (let i = end - 1; i >= start; i--) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) continue;
    const value = double ? digit * 2 : digit;
    sum += value > 9 ? value - 9 : value;
    double = !double;
  }
  return sum;
}

/** A card number has 13 to 19 digits. */
const MIN_CARD_DIGITS = 13;
const MAX_CARD_DIGITS = 19;

/**
 * Whether the text has too few digits to hold a card number at all: most strings of a request (names,
 * descriptions, e-mails) are settled by this count alone, without the search below.
 */
function tooFewDigits(text: string): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57 && ++digits >= MIN_CARD_DIGITS) return false;
  }
  return true;
}

const isDigit = (text: string, i: number) => {
  const code = text.charCodeAt(i);
  return code >= 48 && code <= 57;
};

/**
 * Where the separator between two digit groups that starts at `i` ends, or -1 when there is none. A
 * separator is what people put between a card's groups: a run of whitespace, or up to three marks
 * (characters neither letters nor digits) with any whitespace around and between them, where the marks
 * are one mark ("." "_" "/" "-" …), one mark repeated ("4111--1111", "4111 .. 1111"), or a closing and
 * an opening parenthesis ("(4111) (1111)"). Two different marks ("67, +7") do not join groups: two
 * phone numbers in a list are not one card number.
 */
function separatorEnd(text: string, i: number): number {
  const marks: string[] = [];
  let j = i;
  while (j < text.length) {
    const char = text.codePointAt(j) ?? 0;
    const mark = String.fromCodePoint(char);
    if (SPACE.test(mark)) {
      j++;
      continue;
    }
    if (ALPHANUMERIC.test(mark) || marks.length === MAX_MARKS) break;
    marks.push(mark);
    j += mark.length;
  }
  return j === i || !joinsGroups(marks) ? -1 : j;
}

const MAX_MARKS = 3;
const SPACE = /\s/;
const ALPHANUMERIC = /[\p{L}\p{N}]/u;

function joinsGroups(marks: readonly string[]): boolean {
  return marks.every((mark) => mark === marks[0]) || marks.join("") === ")(";
}

// What reads as nothing or as a digit to a person but not to a pattern: zero-width characters between
// digits are taken for spaces, full-width digits (U+FF10–U+FF19) for digits. One code unit each way,
// so a span found in the plain text is the same span of the original.
const DISGUISED = /[\u200B-\u200D\u2060\uFEFF\uFF10-\uFF19]/g;

function plain(text: string): string {
  return text.replace(DISGUISED, (char) => {
    const code = char.charCodeAt(0);
    return code >= 0xff10 ? String.fromCharCode(code - 0xff10 + 48) : " ";
  });
}

/**
 * The spans [start, end) of `text` that hold a card number, overlapping spans merged, in order.
 *
 * A card number is written as groups of digits joined by separators (see {@link separatorEnd}:
 * "4111 1111 1111 1111", "4111.1111.…", "4111_1111_…"), possibly followed by more digits such as an
 * expiry ("… 1111 12 25"). So the text is cut into runs of digit groups joined by one separator each,
 * and every window of whole consecutive groups holding 13–19 digits that passes Luhn is a card number.
 * Windows start and end on group boundaries so that a long opaque numeric token (25 digits, no
 * separators) is judged as a whole and not flagged because some 16 digits inside it happen to pass Luhn.
 */
function* cardSpans(text: string): Generator<[number, number]> {
  const groups: number[] = []; // start, end, start, end, … of the current run's groups
  let i = 0;
  while (i < text.length) {
    if (!isDigit(text, i)) {
      i++;
      continue;
    }
    groups.length = 0;
    for (;;) {
      const start = i;
      while (isDigit(text, i)) i++;
      groups.push(start, i);
      const next = separatorEnd(text, i);
      if (next === -1 || !isDigit(text, next)) break;
      i = next;
    }
    yield* runSpans(text, groups);
  }
}

function* runSpans(text: string, groups: readonly number[]): Generator<[number, number]> {
  let merged: [number, number] | null = null;
  for (let first = 0; first < groups.length; first += 2) {
    let digits = 0;
    for (let last = first; last < groups.length; last += 2) {
      const start = groups[first] ?? 0;
      const end = groups[last + 1] ?? 0;
      digits += end - (groups[last] ?? 0);
      if (digits > MAX_CARD_DIGITS) break;
      if (digits < MIN_CARD_DIGITS || luhnSum(text, start, end) % 10 !== 0) continue;
      if (merged !== null && start < merged[1]) {
        merged[1] = Math.max(merged[1], end);
      } else {
        if (merged !== null) yield merged;
        merged = [start, end];
      }
    }
  }
  if (merged !== null) yield merged;
}

// A UUID (8-4-4-4-12 hex) is an identifier, never card data, but its all-digit segments joined by
// dashes can pass Luhn: generated ids in refs and external ids were refused by chance (CI, twice), and
// a project id in a log line was redacted (CI, once).
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** The text with every UUID overwritten by letters, which join no digit groups; same length, same spans. */
export function withoutUuids(text: string): string {
  return text.includes("-") ? text.replace(UUID, (uuid) => "x".repeat(uuid.length)) : text;
}

/** Whether the text contains a card number (see {@link cardSpans} for what counts as one; UUIDs never do). */
export function containsCardNumber(text: string): boolean {
  const plainText = plain(text);
  return !tooFewDigits(plainText) && !cardSpans(withoutUuids(plainText)).next().done;
}

/** The text with every card number replaced by `[REDACTED]`, for logs. */
export function redactCardNumbers(text: string): string {
  const plainText = plain(text);
  if (tooFewDigits(plainText)) return text;
  let result = "";
  let copied = 0;
  for (const [start, end] of cardSpans(withoutUuids(plainText))) {
    result += `${text.slice(copied, start)}[REDACTED]`;
    copied = end;
  }
  return copied === 0 ? text : result + text.slice(copied);
}

/**
 * A card shown as people expect: first six and last four digits, the rest `*`, in groups of four from
 * the left with any remainder last ("2200 70** **** 1234"; 19 digits end in a group of three).
 */
export function formatCardMask(card: { first6: string; last4: string; length: number }): string {
  const { first6, last4, length } = card;
  if (!/^[0-9]{6}$/.test(first6) || !/^[0-9]{4}$/.test(last4) || !Number.isInteger(length)) {
    throw new RangeError("formatCardMask: first6 must be 6 digits, last4 4 digits, length an integer");
  }
  if (length < MIN_CARD_DIGITS || length > MAX_CARD_DIGITS)
    throw new RangeError(`formatCardMask: length ${length} is not 13–19`);
  const masked = first6 + "*".repeat(length - 10) + last4;
  return masked.replace(/(.{4})(?=.)/g, "$1 ");
}
