import type { PageLanguage } from "./page-language.js";

/**
 * Every word the payment pages show (Kopek's page, its outcomes and refusals, the sandbox's TEST
 * checkout), in each page language: one table, so a new language is one more entry.
 */
export interface PageMessages {
  /** Payment methods as a payer names them, and the button that pays with each. */
  readonly methodNames: Readonly<Record<string, string>>;
  readonly payWith: Readonly<Record<string, string>>;
  readonly payTitle: (amount: string) => string;
  /** An invoice's description when the merchant gave none: "Счёт на 1 499,00 ₽". */
  readonly invoiceFor: (amount: string) => string;
  /** Before the expiry time: "Pay by 25 November 2026, 11:30 UTC". */
  readonly payBy: string;
  /** The payment form's accessible name: the payer chooses how to pay. */
  readonly chooseMethod: string;
  /** The accessible name of the list of the offered methods' marks (Мир, СБП). */
  readonly acceptedMarks: string;
  /** After the TEST word on a sandbox project's invoice page. */
  readonly testInvoice: string;
  readonly declined: string;
  /** The provider answered the request to make the payment with an error: trying again alone will not help. */
  readonly refused: string;
  readonly unavailable: string;
  readonly expiredTitle: string;
  readonly expired: string;
  readonly canceledTitle: string;
  readonly canceled: string;
  /** The invoice had its MAX_INVOICE_ATTEMPTS, all declined: the payer should ask the merchant. */
  readonly exhaustedTitle: string;
  readonly exhausted: string;
  readonly pendingTitle: string;
  readonly pending: string;
  readonly checkAgain: string;
  readonly paidTitle: string;
  readonly paid: string;
  readonly methodLabel: string;
  readonly paidAtLabel: string;
  readonly invoiceLabel: string;
  /** Where the fiscal receipt goes, the contacts already masked: "to i***@mail.ru and to +7******4567". */
  readonly receiptTo: (contacts: readonly string[]) => string;
  readonly backTo: (merchant: string) => string;
  readonly notFoundTitle: string;
  readonly notFound: string;
  readonly errorTitle: string;
  /** 403: the form's CSRF token or origin did not check out. */
  readonly formExpired: string;
  readonly failed: string;
  readonly sandbox: {
    readonly title: (amount: string) => string;
    /** The banner's first word, in bold: the payer must not miss that this is a test. */
    readonly test: string;
    readonly banner: string;
    readonly how: Readonly<Record<string, string>>;
    readonly succeed: string;
    readonly decline: string;
    readonly already: Readonly<Record<"succeeded" | "canceled", string>>;
    readonly back: string;
  };
}

const EN: PageMessages = {
  methodNames: { card: "card", sbp: "SBP" },
  payWith: { card: "Pay with card", sbp: "Pay with SBP" },
  payTitle: (amount) => `Pay ${amount}`,
  invoiceFor: (amount) => `Invoice for ${amount}`,
  acceptedMarks: "Accepted",
  payBy: "Pay by",
  chooseMethod: "Choose how to pay",
  testInvoice: "a test invoice: the Kopek sandbox moves no money.",
  declined: "The payment was declined. Nothing was charged; you can try again.",
  refused:
    "The payment provider refused to make this payment. Nothing was charged; please try another method or contact the merchant.",
  unavailable:
    "The payment provider could not be reached. Nothing was charged; please try again in a moment.",
  expiredTitle: "This invoice has expired",
  expired: "This invoice has expired and can no longer be paid. Nothing was charged.",
  canceledTitle: "This invoice was canceled",
  canceled: "This invoice was canceled and can no longer be paid. Nothing was charged.",
  exhaustedTitle: "This invoice can no longer be paid here",
  exhausted:
    "This invoice has had too many payment attempts and can no longer be paid here. Nothing was charged. Please contact the merchant to pay.",
  pendingTitle: "Waiting for confirmation",
  pending: "Waiting for the payment provider to confirm the payment.",
  checkAgain: "Check again",
  paidTitle: "Paid",
  paid: "Paid. Thank you!",
  methodLabel: "Method",
  paidAtLabel: "Paid at",
  invoiceLabel: "Invoice",
  receiptTo: (contacts) => `The fiscal receipt is sent to ${contacts.join(" and ")}.`,
  backTo: (merchant) => `Back to ${merchant}`,
  notFoundTitle: "Not found",
  notFound: "There is no payment here. Check the link you were given.",
  errorTitle: "Error",
  formExpired: "This form has expired or did not come from this page. Go back, reload and try again.",
  failed: "Something went wrong on our side. Nothing was charged; please try again in a moment.",
  sandbox: {
    title: (amount) => `TEST payment ${amount}`,
    test: "TEST",
    banner: "Kopek sandbox provider: no money moves.",
    how: {
      card: "Card payment form (test: no card details are asked)",
      sbp: "SBP: in a real bank app the payer would scan a QR code (test: no bank is asked)",
    },
    succeed: "Succeed",
    decline: "Decline",
    already: {
      succeeded: "This test payment has already succeeded.",
      canceled: "This test payment was already declined.",
    },
    back: "Back to the shop",
  },
};

const RU: PageMessages = {
  methodNames: { card: "банковская карта", sbp: "СБП" },
  payWith: { card: "Оплатить картой", sbp: "Оплатить через СБП" },
  payTitle: (amount) => `Оплата ${amount}`,
  invoiceFor: (amount) => `Счёт на ${amount}`,
  acceptedMarks: "Принимаем",
  payBy: "Оплатить до",
  chooseMethod: "Выберите способ оплаты",
  testInvoice: "тестовый счёт: в песочнице Kopek деньги не списываются.",
  declined: "Платёж отклонён. Деньги не списаны, можно попробовать ещё раз.",
  refused:
    "Платёжная система отказалась провести этот платёж. Деньги не списаны; попробуйте другой способ оплаты или свяжитесь с продавцом.",
  unavailable: "Платёжная система не отвечает. Деньги не списаны, попробуйте ещё раз через минуту.",
  expiredTitle: "Срок оплаты счёта истёк",
  expired: "Срок оплаты счёта истёк, оплатить его уже нельзя. Деньги не списаны.",
  canceledTitle: "Счёт отменён",
  canceled: "Счёт отменён, оплатить его уже нельзя. Деньги не списаны.",
  exhaustedTitle: "Этот счёт больше нельзя оплатить здесь",
  exhausted:
    "По этому счёту было слишком много попыток оплаты, оплатить его здесь больше нельзя. Деньги не списаны. Чтобы оплатить, свяжитесь с продавцом.",
  pendingTitle: "Ждём подтверждения",
  pending: "Ждём, когда платёжная система подтвердит платёж.",
  checkAgain: "Проверить ещё раз",
  paidTitle: "Оплачено",
  paid: "Оплачено. Спасибо!",
  methodLabel: "Способ оплаты",
  paidAtLabel: "Дата оплаты",
  invoiceLabel: "Счёт",
  receiptTo: (contacts) => `Кассовый чек придёт на ${contacts.join(" и ")}.`,
  backTo: (merchant) => `Вернуться на сайт ${merchant}`,
  notFoundTitle: "Не найдено",
  notFound: "Здесь нет платежа. Проверьте ссылку, которую вам дали.",
  errorTitle: "Ошибка",
  formExpired:
    "Форма устарела или отправлена не с этой страницы. Вернитесь, обновите страницу и попробуйте снова.",
  failed: "Что-то пошло не так на нашей стороне. Деньги не списаны, попробуйте ещё раз через минуту.",
  sandbox: {
    title: (amount) => `ТЕСТ: оплата ${amount}`,
    test: "ТЕСТ",
    banner: "песочница Kopek: деньги не списываются.",
    how: {
      card: "Форма оплаты картой (тест: данные карты не запрашиваются)",
      sbp: "СБП: в настоящем приложении банка плательщик отсканировал бы QR-код (тест: банк не участвует)",
    },
    succeed: "Оплатить",
    decline: "Отклонить",
    already: {
      succeeded: "Этот тестовый платёж уже проведён.",
      canceled: "Этот тестовый платёж уже отклонён.",
    },
    back: "Вернуться в магазин",
  },
};

export const PAGE_MESSAGES: Readonly<Record<PageLanguage, PageMessages>> = { en: EN, ru: RU };
