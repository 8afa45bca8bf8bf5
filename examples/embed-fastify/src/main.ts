import { startShop } from "./shop.js";

const port = Number(process.env.PORT ?? 3002);
const shop = await startShop(port);
const { projectId, apiKey } = await shop.addProject("demo");
console.log(`The shop at ${shop.url}, Kopek under ${shop.url}/kopek (project ${projectId})`);
console.log(
  `curl -i ${shop.url}/kopek/v1/invoices -H "Authorization: Bearer ${apiKey}" ` +
    `-H "Idempotency-Key: demo-$(date +%s%N)" -H "Content-Type: application/json" ` +
    `-d '{"amount":{"amount":"149900","currency":"RUB"}}'`,
);
const stop = () => void shop.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
