import { z } from "zod";
import {
  E164_PATTERN,
  MAX_CUSTOMER_NAME_LENGTH,
  MAX_EMAIL_LENGTH,
  MAX_EXTERNAL_ID_LENGTH,
} from "../domain/limits.js";
import { metadataSchema } from "./schemas.js";

/** The request schemas of API.md 11.1's customers; the cross-field rules are in `validate.ts`. */

const customerFields = {
  email: z.email({ error: "must be a valid e-mail address" }).max(MAX_EMAIL_LENGTH),
  phone: z.string().regex(E164_PATTERN, { error: "must be an E.164 number such as +79991234567" }),
  name: z.string().min(1).max(MAX_CUSTOMER_NAME_LENGTH),
  externalId: z
    .string()
    .min(1)
    .max(MAX_EXTERNAL_ID_LENGTH)
    .meta({ description: "The merchant's own id of the customer, unique per project" }),
};

/** API.md 11.1: at least one of email, phone, externalId (checked in `validateCreateCustomer`). */
export const createCustomerRequestSchema = z
  .strictObject({
    email: customerFields.email.nullable().optional(),
    phone: customerFields.phone.nullable().optional(),
    name: customerFields.name.nullable().optional(),
    externalId: customerFields.externalId.nullable().optional(),
    metadata: metadataSchema.optional(),
  })
  .meta({
    id: "CreateCustomerRequest",
    description: "At least one of email, phone and externalId",
  });

export type CreateCustomerRequest = z.infer<typeof createCustomerRequestSchema>;

/** API.md 11.1: the fields sent change (null clears one); the customer keeps an email, phone or externalId. */
export const updateCustomerRequestSchema = createCustomerRequestSchema.meta({
  id: "UpdateCustomerRequest",
  description:
    "The fields to change; null clears one. The customer must keep at least one of email, phone and externalId",
});

export type UpdateCustomerRequest = z.infer<typeof updateCustomerRequestSchema>;
