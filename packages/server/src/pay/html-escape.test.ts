import { describe, expect, it } from "vitest";
import { escapeHtml, html } from "./html-escape.js";

describe("escapeHtml", () => {
  it("escapes the five characters that can break out of text or a quoted attribute", () => {
    expect(escapeHtml(`<script>alert("x") & 'y'</script>`)).toBe(
      "&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;",
    );
  });

  it("escapes interpolated values in the html tag but not nested html", () => {
    const inner = html`<b>${"<i>"}</b>`;
    expect(html`<p title="${'"onmouseover=x'}">${inner}${["<", ">"]}</p>`.value).toBe(
      '<p title="&quot;onmouseover=x"><b>&lt;i&gt;</b>&lt;&gt;</p>',
    );
  });
});
