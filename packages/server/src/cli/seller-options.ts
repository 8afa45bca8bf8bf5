import { SELLER_FIELDS, type SellerDetails, sellerFieldProblem } from "@kopek/core";

/** The seller's fields as `kopek projects create|update` names them (issue 42 part 3). */
export const SELLER_OPTIONS: Readonly<Record<keyof SellerDetails, string>> = {
  legalName: "seller-legal-name",
  inn: "seller-inn",
  email: "seller-email",
  phone: "seller-phone",
  offerUrl: "seller-offer-url",
  privacyUrl: "seller-privacy-url",
};

export type SellerOptions = Partial<Record<keyof SellerDetails, string | undefined>>;

/**
 * The seller after the options: a field given is set (trimmed) — on update `""` removes it — and one
 * not given keeps `kept`'s value. `{}` when no field is left; a usage problem when a value breaks its rule.
 */
export function sellerFromOptions(
  given: SellerOptions,
  kept: SellerDetails | undefined,
): { readonly seller?: SellerDetails } | string {
  const seller: Record<string, string> = {};
  for (const field of SELLER_FIELDS) {
    const value = given[field]?.trim();
    if (value === undefined) {
      const old = kept?.[field];
      if (old !== undefined) seller[field] = old;
      continue;
    }
    if (value === "") continue;
    const problem = sellerFieldProblem(field, value);
    if (problem !== null) return `--${SELLER_OPTIONS[field]} ${problem}`;
    seller[field] = value;
  }
  return Object.keys(seller).length === 0 ? {} : { seller: seller as SellerDetails };
}
