import type { AddressInfo } from "node:net";
import { createEmbeddedKopek } from "./server.js";

// PORT (default 3001; 0 picks a free one). Payment links use the port really bound.
const port = Number(process.env.PORT ?? 3001);
let publicUrl = `http://127.0.0.1:${port}`;
const embedded = createEmbeddedKopek({ publicUrl: () => publicUrl });
const apiKey = await embedded.addProject("demo");
embedded.server.listen(port, "127.0.0.1", () => {
  publicUrl = `http://127.0.0.1:${(embedded.server.address() as AddressInfo).port}`;
  console.log(`Kopek on node:http at ${publicUrl}, demo key ${apiKey}`);
  // A fresh Idempotency-Key per run from node itself (installed wherever this runs), so the line works
  // in any shell: no uuidgen, no bash-only $RANDOM.
  console.log(
    `curl -i ${publicUrl}/v1/invoices -H "Authorization: Bearer ${apiKey}" ` +
      `-H "Idempotency-Key: $(node -p 'crypto.randomUUID()')" -H "Content-Type: application/json" ` +
      `-d '{"amount":{"amount":"149900","currency":"RUB"}}'`,
  );
});
