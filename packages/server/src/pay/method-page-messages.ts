import type { PeriodUnit } from "@kopek/core";
import type { PageLanguage } from "./page-language.js";

/** Every word the method-update page shows (API.md 11.5), in each page language. */
export interface MethodPageMessages {
  readonly title: string;
  /** What the page is for, with the subscription's charge: "1 499,00 ₽ every month". */
  readonly lead: (charge: string) => string;
  readonly currentMethod: string;
  /** A verification payment of `amount` is made and refunded at once. */
  readonly verification: (amount: string) => string;
  /** The provider saves a card with no payment at all. */
  readonly noCharge: string;
  /** A past-due subscription: its overdue charge is made from the new method at once. */
  readonly pastDue: (amount: string) => string;
  readonly saveWith: Readonly<Record<string, string>>;
  readonly chooseMethod: string;
  readonly validUntil: string;
  readonly every: (count: number, unit: PeriodUnit) => string;
  readonly declined: string;
  readonly refused: string;
  readonly unavailable: string;
  readonly completedTitle: string;
  readonly completed: string;
  readonly completedPastDue: string;
  readonly notSaved: string;
  readonly expiredTitle: string;
  readonly expired: string;
  readonly closedTitle: string;
  readonly closed: string;
  readonly exhaustedTitle: string;
  readonly exhausted: string;
  readonly pendingTitle: string;
  readonly pending: string;
  /** Back from a save with no payment before the provider decided it. */
  readonly savePending: string;
  /** Back from the provider's own page (not the link's: T-Bank's), with no link known. */
  readonly returnedTitle: string;
  readonly returned: string;
  readonly testNote: string;
}

const EN_UNITS: Readonly<Record<PeriodUnit, string>> = {
  day: "day",
  week: "week",
  month: "month",
  year: "year",
};

const EN: MethodPageMessages = {
  title: "Update your payment method",
  lead: (charge) => `Your subscription: ${charge}. Save a new payment method for its next charges.`,
  currentMethod: "Method now",
  verification: (amount) => `To check the method, a payment of ${amount} is made and refunded at once.`,
  noCharge: "Saving a card charges nothing.",
  pastDue: (amount) => `The overdue payment of ${amount} is then charged from the new method.`,
  saveWith: { card: "Save a card", sbp: "Save an SBP account" },
  chooseMethod: "Choose a payment method to save",
  validUntil: "This link is valid until",
  every: (count, unit) => (count === 1 ? `every ${EN_UNITS[unit]}` : `every ${count} ${EN_UNITS[unit]}s`),
  declined: "The method was declined. Nothing was saved or charged; you can try again.",
  refused:
    "The payment provider refused to check this method. Nothing was saved or charged; please try another method.",
  unavailable: "The payment provider could not be reached. Nothing was saved; please try again in a moment.",
  completedTitle: "Payment method updated",
  completed: "Your new payment method is saved. The next charges are made from it.",
  completedPastDue: "Your new payment method is saved; the overdue payment is being charged from it now.",
  notSaved:
    "The provider checked the payment but did not save the method. The check is refunded; please try another method.",
  expiredTitle: "This link has expired",
  expired: "This link has expired or was replaced by a newer one. Ask the merchant for a new link.",
  closedTitle: "This subscription has ended",
  closed: "This subscription is no longer active: there is no method to update.",
  exhaustedTitle: "Too many attempts",
  exhausted: "This link has had too many attempts. Ask the merchant for a new link.",
  pendingTitle: "Waiting for confirmation",
  pending: "Waiting for the payment provider to confirm the check.",
  savePending: "Waiting for the payment provider to confirm that the method is saved.",
  returnedTitle: "Thank you",
  returned:
    "The payment provider has your answer. If your method was saved, the merchant's next charges are made from it; you can close this page.",
  testNote: "a test subscription: the Kopek sandbox moves no money.",
};

const RU_UNITS: Readonly<Record<PeriodUnit, readonly [string, string, string]>> = {
  day: ["день", "дня", "дней"],
  week: ["неделю", "недели", "недель"],
  month: ["месяц", "месяца", "месяцев"],
  year: ["год", "года", "лет"],
};

/** The Russian form of a unit after `count`: 1 месяц, 2 месяца, 5 месяцев (CLDR plural rules). */
function ruUnit(count: number, unit: PeriodUnit): string {
  const [one, few, many] = RU_UNITS[unit];
  const rule = new Intl.PluralRules("ru").select(count);
  return rule === "one" ? one : rule === "few" ? few : many;
}

const RU: MethodPageMessages = {
  title: "Смена способа оплаты",
  lead: (charge) => `Ваша подписка: ${charge}. Сохраните новый способ оплаты для следующих списаний.`,
  currentMethod: "Сейчас",
  verification: (amount) => `Для проверки спишем ${amount} и сразу вернём.`,
  noCharge: "Карта сохраняется без списания денег.",
  pastDue: (amount) => `Затем с нового способа будет списан просроченный платёж ${amount}.`,
  saveWith: { card: "Сохранить карту", sbp: "Сохранить счёт СБП" },
  chooseMethod: "Выберите способ оплаты, который сохранить",
  validUntil: "Ссылка действует до",
  every: (count, unit) =>
    count === 1 ? `раз в ${RU_UNITS[unit][0]}` : `раз в ${count} ${ruUnit(count, unit)}`,
  declined: "Способ оплаты отклонён. Ничего не сохранено и не списано, можно попробовать ещё раз.",
  refused:
    "Платёжная система отказалась проверить этот способ. Ничего не сохранено и не списано; попробуйте другой способ.",
  unavailable: "Платёжная система не отвечает. Ничего не сохранено, попробуйте ещё раз через минуту.",
  completedTitle: "Способ оплаты обновлён",
  completed: "Новый способ оплаты сохранён. Следующие списания будут с него.",
  completedPastDue: "Новый способ оплаты сохранён; просроченный платёж списывается с него сейчас.",
  notSaved:
    "Платёжная система провела проверку, но не сохранила способ оплаты. Проверочный платёж возвращён; попробуйте другой способ.",
  expiredTitle: "Срок действия ссылки истёк",
  expired: "Срок действия ссылки истёк или её заменила новая. Попросите у продавца новую ссылку.",
  closedTitle: "Подписка завершена",
  closed: "Подписка больше не действует: менять способ оплаты не нужно.",
  exhaustedTitle: "Слишком много попыток",
  exhausted: "По этой ссылке было слишком много попыток. Попросите у продавца новую ссылку.",
  pendingTitle: "Ждём подтверждения",
  pending: "Ждём, когда платёжная система подтвердит проверку.",
  savePending: "Ждём, когда платёжная система подтвердит, что способ оплаты сохранён.",
  returnedTitle: "Спасибо",
  returned:
    "Платёжная система получила ваш ответ. Если способ оплаты сохранён, следующие списания будут с него; страницу можно закрыть.",
  testNote: "тестовая подписка: в песочнице Kopek деньги не списываются.",
};

export const METHOD_PAGE_MESSAGES: Readonly<Record<PageLanguage, MethodPageMessages>> = { en: EN, ru: RU };
