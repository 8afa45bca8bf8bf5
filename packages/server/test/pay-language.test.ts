import { orderNumberOf } from "@kopek/core";
import { manualClock } from "@kopek/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "./helper.js";
import { startPayServer } from "./pay-fixture.js";
import { createInvoice } from "./pay-page.js";

const NBSP = "\u00a0";
const RU = { "accept-language": "ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7" };
const EN = { "accept-language": "en-US,en;q=0.9" };

let server: Awaited<ReturnType<typeof startPayServer>>;

beforeAll(async () => {
  server = await startPayServer("http://127.0.0.1:9/hooks");
  // What payers should read instead of the operator's name for the project.
  const { displayName: _none, ...project } = server.project;
  (await server.storage.saveProject({ ...project, displayName: "Кофейня «Зерно» <&>" }))._unsafeUnwrap();
});
afterAll(() => server.close());

const MONTHS_RU = "января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split(
  " ",
);
const MONTHS_EN =
  "January February March April May June July August September October November December".split(" ");

/** Two days ahead at 11:30 UTC, which is 14:30 in Moscow (UTC+3, no daylight saving) the same day. */
function expiry() {
  const at = new Date(Date.now() + 2 * 24 * 3600_000);
  at.setUTCHours(11, 30, 0, 0);
  const [day, month, year] = [at.getUTCDate(), at.getUTCMonth(), at.getUTCFullYear()];
  return {
    iso: at.toISOString(),
    ru: `${day} ${MONTHS_RU[month]} ${year} г., 14:30${NBSP}(МСК)`,
    en: `${day} ${MONTHS_EN[month]} ${year}, 11:30${NBSP}UTC`,
  };
}

/** An invoice of 1 499,00 ₽ that expires at `expiry()`. */
async function invoice(body: Record<string, unknown> = {}) {
  const created = await server.post("/v1/invoices", {
    amount: { amount: "149900", currency: "RUB" },
    description: "Два флэт уайта",
    returnUrl: "https://shop.example/back",
    expiresAt: expiry().iso,
    ...body,
  });
  expect(created.status).toBe(201);
  return (await created.json()) as { id: string; paymentUrl: string };
}

const open = (path: string, headers: Record<string, string> = {}) =>
  fetch(new URL(path, server.url), { headers, redirect: "manual" });

/** The payer's whole way to a paid invoice in `headers`' language: the checkout and the last page. */
async function pay(id: string, headers: Record<string, string>) {
  const page = await (await open(`/pay/${id}`, headers)).text();
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? "";
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    headers: { ...headers, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual" as const,
  });
  const chosen = await fetch(new URL(`/pay/${id}`, server.url), form({ token, method: "card" }));
  expect(chosen.status).toBe(303);
  const checkoutUrl = new URL(String(chosen.headers.get("location")), server.url);
  const checkout = await open(checkoutUrl.pathname, headers);
  const checkoutBody = await checkout.text();
  const checkoutToken = /name="token" value="([^"]+)"/.exec(checkoutBody)?.[1] ?? "";
  const decided = await fetch(checkoutUrl, form({ token: checkoutToken, decision: "succeed" }));
  const returned = await open(String(decided.headers.get("location")), headers);
  return { checkout, checkoutBody, returned, body: await returned.text() };
}

describe("the payment page speaks the payer's language", () => {
  it("Russian for a Russian browser: lang, amount, the merchant's display name, expiry in Moscow time", async () => {
    const { id } = await invoice();
    const response = await open(`/pay/${id}`, RU);
    const body = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get("vary")).toBe("Accept-Language");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(body).toContain('<html lang="ru">');
    expect(body).toContain(`<p class="amount">1${NBSP}499,00${NBSP}₽</p>`);
    expect(body).toContain("<h1>Кофейня «Зерно» &lt;&amp;&gt;</h1>");
    expect(body).toContain(`Оплатить до <time datetime="${expiry().iso}">${expiry().ru}</time>`);
    expect(body).toContain(">Оплатить картой</button>");
    expect(body).toContain(">Оплатить через СБП</button>");
    // The offered methods' marks, drawn inline (no asset fetched), named for screen readers.
    expect(body).toMatch(
      /<ul class="marks" aria-label="Принимаем"><li><svg[^>]*aria-hidden="true"[\s\S]*?<\/svg><span class="visually-hidden">Мир<\/span><\/li><li><svg[\s\S]*?СБП<\/span><\/li><\/ul>/,
    );
    expect(body).not.toMatch(/<script|Pay with|RUB|Coffee|<img|href="http/);
  });

  it("English for an English browser, and for one that names neither language or sends none", async () => {
    const { id } = await invoice();
    for (const headers of [EN, { "accept-language": "de-DE,de;q=0.9" }, {}]) {
      const response = await open(`/pay/${id}`, headers);
      const body = await response.text();
      expect(response.headers.get("vary")).toBe("Accept-Language");
      expect(body).toContain('<html lang="en">');
      expect(body).toContain(`<p class="amount">RUB${NBSP}1,499.00</p>`);
      expect(body).toContain("<h1>Кофейня «Зерно» &lt;&amp;&gt;</h1>");
      expect(body).toContain(`Pay by <time datetime="${expiry().iso}">${expiry().en}</time>`);
      expect(body).toContain(">Pay with card</button>");
      expect(body).not.toMatch(/<script|Оплатить/);
    }
  });

  it("an invoice without a description: Kopek's own text in the payer's language, the merchant's as written", async () => {
    const { id } = await invoice({ description: undefined });
    const ru = await (await open(`/pay/${id}`, RU)).text();
    expect(ru).toContain(`<p class="description">Счёт на 1${NBSP}499,00${NBSP}₽</p>`);
    expect(ru).not.toContain("Invoice for");
    const en = await (await open(`/pay/${id}`, EN)).text();
    expect(en).toContain(`<p class="description">Invoice for RUB${NBSP}1,499.00</p>`);
    // The API keeps answering the description it stored (API.md 5.4).
    expect(await server.get(`/v1/invoices/${id}`)).toMatchObject({ description: "Invoice for 1499.00 RUB" });
    const given = await invoice();
    expect(await (await open(`/pay/${given.id}`, EN)).text()).toContain(
      '<p class="description">Два флэт уайта</p>',
    );
  });

  it("the paid page: the order's short number beside its id, and where the fiscal receipt goes (masked)", async () => {
    const receipt = {
      customer: { email: "ivan.petrov@example.ru", phone: "+79991234567" },
      items: [
        {
          description: "Два флэт уайта",
          quantity: "1",
          amount: { amount: "149900", currency: "RUB" },
          vatCode: 1,
          paymentSubject: "commodity",
          paymentMode: "full_payment",
        },
      ],
    };
    const { id } = await invoice({ receipt });
    const { body } = await pay(id, RU);
    expect(body).toContain(`<dd>№ ${orderNumberOf(id)} <small class="id">${id}</small></dd>`);
    expect(body).toContain('<p class="receipt">Кассовый чек придёт на iv***@example.ru и +7******4567.</p>');
    expect(body).not.toContain("ivan.petrov");
    expect(body).not.toContain("79991234567");
    const plain = await invoice();
    expect((await pay(plain.id, EN)).body).not.toContain('class="receipt"');
  });

  it("weighs the languages: en-US;q=0.8,ru;q=0.9 is Russian", async () => {
    const { id } = await invoice();
    const body = await (await open(`/pay/${id}`, { "accept-language": "en-US;q=0.8,ru;q=0.9" })).text();
    expect(body).toContain('<html lang="ru">');
  });

  it("the sandbox's TEST checkout and the paid page in Russian, paidAt in Moscow time", async () => {
    const { id } = await invoice();
    const { checkout, checkoutBody, returned, body } = await pay(id, RU);
    expect(checkout.headers.get("vary")).toBe("Accept-Language");
    expect(checkoutBody).toContain('<html lang="ru">');
    expect(checkoutBody).toContain("<strong>ТЕСТ</strong> — песочница Kopek: деньги не списываются.");
    expect(checkoutBody).toContain(`<h1>1${NBSP}499,00${NBSP}₽</h1>`);
    expect(checkoutBody).toContain(">Оплатить</button>");
    expect(checkoutBody).toContain(">Отклонить</button>");
    expect(returned.status).toBe(200);
    expect(body).toContain("Оплачено. Спасибо!");
    expect(body).toContain("<dt>Способ оплаты</dt><dd>банковская карта</dd>");
    expect(body).toMatch(
      /<dt>Дата оплаты<\/dt><dd><time datetime="[^"]+Z">\d{1,2} [а-я]+ \d{4} г\., \d\d:\d\d\u00a0\(МСК\)<\/time><\/dd>/,
    );
    expect(body).toContain(
      '<a href="https://shop.example/back">Вернуться на сайт Кофейня «Зерно» &lt;&amp;&gt;</a>',
    );
    const paid = (await server.get(`/v1/invoices/${id}`)) as { status: string; paidAt: string };
    expect(paid.status).toBe("paid");
    // The same moment, shown in Moscow time: three hours after UTC.
    const moscow = new Date(new Date(paid.paidAt).getTime() + 3 * 3600_000);
    const hhmm = moscow.toISOString().slice(11, 16);
    expect(body).toContain(`, ${hhmm}${NBSP}(МСК)</time>`);
    // In English, the same receipt in UTC.
    const english = await (await open(`/pay/${id}`, EN)).text();
    expect(english).toContain(`, ${paid.paidAt.slice(11, 16)}${NBSP}UTC</time>`);
    expect(english).toContain("<dt>Method</dt><dd>card</dd>");
  });

  it("refusals in Russian: a canceled invoice, and an unknown one", async () => {
    const { id } = await invoice();
    const canceled = await server.post(`/v1/invoices/${id}/cancel`, {});
    expect(canceled.status).toBe(200);
    const body = await (await open(`/pay/${id}`, RU)).text();
    expect(body).toContain("<title>Счёт отменён</title>");
    expect(body).toContain("Счёт отменён, оплатить его уже нельзя. Деньги не списаны.");
    expect(body).not.toContain("<form");
    const missing = await open(`/pay/${crypto.randomUUID()}`, RU);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Здесь нет платежа.");
  });
});

it("an expired invoice says so in Russian", async () => {
  const clock = manualClock(new Date());
  const t = await buildTestApp({ clock });
  const expiresAt = new Date(clock.now().getTime() + 60_000).toISOString();
  const id = await createInvoice(t, { expiresAt });
  clock.advance(61_000);
  const page = await t.inject({ method: "GET", url: `/pay/${id}`, headers: RU });
  expect(page.headers.vary).toBe("Accept-Language");
  expect(page.body).toContain('<html lang="ru">');
  expect(page.body).toContain("Срок оплаты счёта истёк, оплатить его уже нельзя. Деньги не списаны.");
  const english = await t.inject({ method: "GET", url: `/pay/${id}`, headers: EN });
  expect(english.body).toContain("This invoice has expired and can no longer be paid.");
});

describe("the seller block", () => {
  const seller = {
    legalName: "ООО «Зерно»",
    inn: "7707083893",
    email: "shop@zerno.example",
    phone: "+79991234567",
    offerUrl: "https://zerno.example/offer",
    privacyUrl: "https://zerno.example/privacy?a=1&b=<2>",
  };
  const stored = async () => {
    const project = (await server.storage.findProject(server.project.id))._unsafeUnwrap();
    if (project === null) throw new Error("the test's project is gone");
    return project;
  };
  afterAll(async () => {
    const { seller: _dropped, ...project } = await stored();
    (await server.storage.saveProject(project))._unsafeUnwrap();
  });

  it("shows what the project sets, in the payer's language, on every page; nothing when it sets none", async () => {
    const { id } = await invoice();
    expect(await (await open(`/pay/${id}`, RU)).text()).not.toContain('class="seller"');
    const project = await stored();
    await server.storage.saveProject({ ...project, seller });
    const ru = await (await open(`/pay/${id}`, RU)).text();
    expect(ru).toContain(
      '<footer class="seller" aria-label="Продавец"><p>ООО «Зерно» · ИНН 7707083893</p>' +
        '<p><a href="mailto:shop@zerno.example">shop@zerno.example</a> · <a href="tel:+79991234567">+7 999 123-45-67</a></p>' +
        '<p><a href="https://zerno.example/offer">Договор-оферта</a> · <a href="https://zerno.example/privacy?a=1&amp;b=&lt;2&gt;">Политика конфиденциальности</a></p></footer>',
    );
    const en = await (await open(`/pay/${id}`, EN)).text();
    expect(en).toContain("<p>ООО «Зерно» · Taxpayer number (INN) 7707083893</p>");
    expect(en).toContain(">Public offer</a> · <a");
    // The paid page too.
    expect((await pay(id, RU)).body).toContain('<footer class="seller" aria-label="Продавец">');
    await server.storage.saveProject({ ...project, seller: { inn: "500100732259" } });
    expect(await (await open(`/pay/${id}`, RU)).text()).toContain(
      '<footer class="seller" aria-label="Продавец"><p>ИНН 500100732259</p></footer>',
    );
  });
});
