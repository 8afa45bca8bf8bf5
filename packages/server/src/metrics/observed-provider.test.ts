import { createSandboxProvider } from "@kopek/provider-sandbox";
import { describe, expect, it } from "vitest";
import { createKopekMetrics } from "./kopek-metrics.js";
import { observedProvider } from "./observed-provider.js";

describe("observedProvider", () => {
  it("keeps a class-based adapter's methods (on its prototype) and counts their calls", async () => {
    const sandbox = createSandboxProvider();
    // An adapter written as a class: its methods live on the prototype, where a spread never looks.
    class ClassAdapter {
      readonly capabilities = sandbox.capabilities;
      readonly notificationAnswer = sandbox.notificationAnswer;
      readNotification(notification: Parameters<typeof sandbox.readNotification>[0]) {
        return sandbox.readNotification(notification);
      }
      getPayment(id: string) {
        return sandbox.getPayment(id);
      }
    }
    const adapter = new ClassAdapter() as unknown as typeof sandbox;
    const metrics = createKopekMetrics();
    const observed = observedProvider(adapter, "classy", metrics);

    const answer = await observed.getPayment("no-such-payment");
    expect(answer.isErr()).toBe(true);
    expect(observed.capabilities).toBe(sandbox.capabilities);
    // A local call, not timed, still reaches the adapter's method.
    expect(observed.readNotification({ headers: {}, body: "{}" })).toEqual(
      sandbox.readNotification({ headers: {}, body: "{}" }),
    );
    const text = await metrics.registry.metrics();
    expect(text).toMatch(
      /kopek_provider_call_duration_seconds_count\{provider="classy",operation="getPayment",outcome="\w+"\} 1/,
    );
  });
});
