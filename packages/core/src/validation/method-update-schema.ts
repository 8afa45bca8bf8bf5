import { z } from "zod";
import { timestampSchema } from "./response-schemas.js";

/** The answer of `POST /v1/subscriptions/{id}/method-update` (API.md 11.5): the payer's link. */
export const methodUpdateResponseSchema = z
  .object({
    url: z.url().meta({
      description:
        "Kopek's page where the payer saves a new method for this subscription: send it to the payer " +
        "(e-mail, the app). It replaces the subscription's earlier link",
      example:
        "https://pay.example.com/method/0190f3a0-1c2d-7e4f-8a9b-0c1d2e3f4a5b/0190f3a0-2b3c-7d4e-9f0a-1b2c3d4e5f6a/0190f3a1-0a1b-7c2d-8e3f-4a5b6c7d8e9f",
    }),
    expiresAt: timestampSchema.meta({
      description: "24 hours after it was made: the page then takes no new method",
    }),
  })
  .meta({ id: "MethodUpdateLink" });

export type MethodUpdateResponse = z.output<typeof methodUpdateResponseSchema>;
