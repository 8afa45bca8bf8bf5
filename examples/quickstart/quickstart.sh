#!/usr/bin/env bash
# Kopek in seven curl calls. Start a server first (`pnpm start` prints a demo key), then:
#   KOPEK_API_KEY=kopek_… ./examples/quickstart/quickstart.sh
# Each call prints "==> <what>: HTTP <status>", the interesting headers and the JSON answer.
set -euo pipefail

KOPEK_URL="${KOPEK_URL:-http://127.0.0.1:3000}"
: "${KOPEK_API_KEY:?set KOPEK_API_KEY to your API key (pnpm start prints a demo key)}"

headers_file="$(mktemp)"
body_file="$(mktemp)"
trap 'rm -f "$headers_file" "$body_file"' EXIT

# call <what> <path> <Idempotency-Key> <JSON body>: a POST
call() {
  show "$1" "$(curl --silent --show-error --output "$body_file" --dump-header "$headers_file" \
    --write-out '%{http_code}' \
    --request POST "$KOPEK_URL$2" \
    --header "Authorization: Bearer $KOPEK_API_KEY" \
    --header "Idempotency-Key: $3" \
    --header "Content-Type: application/json" \
    --data "$4")"
}

# get <what> <path>: a GET
get() {
  show "$1" "$(curl --silent --show-error --output "$body_file" --dump-header "$headers_file" \
    --write-out '%{http_code}' \
    --header "Authorization: Bearer $KOPEK_API_KEY" \
    "$KOPEK_URL$2")"
}

show() {
  echo "==> $1: HTTP $2"
  grep -iE '^(location|idempotent-replayed|x-request-id):' "$headers_file" | tr -d '\r' || true
  cat "$body_file"
  printf '\n\n'
}

new_key() { echo "quickstart-$(date +%s)-$RANDOM$RANDOM"; }

subscription_key="$(new_key)"
subscription='{"amount":{"amount":"149900","currency":"RUB"},"period":{"unit":"month","count":1},"method":"card","providerMethodRef":"pm_sandbox_quickstart"}'

# 1. A monthly subscription of 1499.00 RUB; the sandbox charges the first cycle at once. Expect 201.
call "create subscription" /v1/subscriptions "$subscription_key" "$subscription"

subscription_path="$(grep -i '^location:' "$headers_file" | cut -d' ' -f2 | tr -d '\r')"

# 2. The same request with the same Idempotency-Key: the stored answer, not a second charge. Expect 200.
call "replay subscription" /v1/subscriptions "$subscription_key" "$subscription"

# 3. An invoice of 499.00 RUB the payer pays on the hosted page at paymentUrl. Expect 201.
call "create invoice" /v1/invoices "$(new_key)" \
  '{"amount":{"amount":"49900","currency":"RUB"},"description":"Order 1042","returnUrl":"https://shop.example.com/thanks"}'

# 4. Money as a JSON number and a lower-case currency: every problem listed at once. Expect 422.
call "validation error" /v1/invoices "$(new_key)" '{"amount":{"amount":499.00,"currency":"rub"}}'

# 5. The subscription as it is now. Expect 200.
get "read subscription" "$subscription_path"

# 6. The newest invoices, two per page; nextCursor fetches the next page. Expect 200.
get "list invoices" "/v1/invoices?limit=2"

# 7. Cancel the subscription: no further charge. Expect 200, status canceled.
call "cancel subscription" "$subscription_path/cancel" "$(new_key)" '{}'
