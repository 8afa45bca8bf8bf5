import { createEmbeddedKopek } from "./server.js";

const port = Number(process.env.PORT ?? 3001);
const embedded = createEmbeddedKopek({ publicUrl: `http://127.0.0.1:${port}` });
const apiKey = await embedded.addProject("demo");
embedded.server.listen(port, "127.0.0.1", () => {
  console.log(`Kopek on node:http at http://127.0.0.1:${port}, demo key ${apiKey}`);
  console.log(
    `curl -i http://127.0.0.1:${port}/v1/invoices -H "Authorization: Bearer ${apiKey}" ` +
      `-H "Idempotency-Key: demo-$RANDOM" -H "Content-Type: application/json" ` +
      `-d '{"amount":{"amount":"149900","currency":"RUB"}}'`,
  );
});
