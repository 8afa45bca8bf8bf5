/**
 * The payment page's stylesheet, served from /pay/assets/pay.css: no inline style anywhere (CSP).
 * Every text colour has at least 4.5:1 contrast on its background (WCAG AA), and whatever takes the
 * keyboard's focus shows a 3px outline (pay-browser-a11y.test.ts checks both in Chromium).
 */
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
.notice.test{background:#fff1c2;border:2px solid #8a5a00}
form{display:flex;flex-direction:column;gap:.75rem}
button{font:inherit;padding:.85rem 1rem;border:0;border-radius:8px;background:#2254d8;color:#fff;cursor:pointer}
button.secondary{background:#e4e6eb;color:#1d1f23}
a{color:#2254d8}
button:focus-visible,a:focus-visible{outline:3px solid #1d1f23;outline-offset:3px}
button:hover{background:#1a43b0}
button.secondary:hover{background:#d2d5dc}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}
dt{color:#666}
dd{margin:0;overflow-wrap:anywhere}
.marks{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;padding:0;margin:1rem 0 0}
.marks svg{display:block}
small.id{color:#555}
.seller{margin:1.5rem 0 0;padding:1rem 0 0;border-top:1px solid #e4e6eb;font-size:.875rem;color:#555;overflow-wrap:anywhere}
.seller p{margin:.25rem 0}
.visually-hidden{position:absolute;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
@media (max-width:30rem){main{margin:0;border-radius:0;min-height:100vh}}
`;
