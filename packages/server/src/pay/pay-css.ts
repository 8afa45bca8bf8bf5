/** The payment page's stylesheet, served from /pay/assets/pay.css: no inline style anywhere (CSP). */
export const PAY_CSS = `*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d1f23}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.1rem;margin:0 0 1rem;color:#555}
.expires{margin:0 0 1rem;color:#555}
.amount{font-size:2rem;font-weight:700;margin:0}
.description{margin:.25rem 0 1rem;color:#333;overflow-wrap:anywhere}
.notice{padding:.75rem 1rem;border-radius:8px;background:#fff4e5;margin:0 0 1rem}
.notice.ok{background:#e8f6ec}
.notice.error{background:#fdecec}
form{display:flex;flex-direction:column;gap:.75rem}
button{font:inherit;padding:.85rem 1rem;border:0;border-radius:8px;background:#2254d8;color:#fff;cursor:pointer}
button.secondary{background:#e4e6eb;color:#1d1f23}
a{color:#2254d8}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{color:#666}
dd{margin:0;overflow-wrap:anywhere}
@media (max-width:30rem){main{margin:0;border-radius:0;min-height:100vh}}
`;
