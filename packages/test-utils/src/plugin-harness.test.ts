import type { HostPlugin } from "@incasso/app";
import type { Authenticate } from "@incasso/server";
import { expect, it } from "vitest";
import { describePlugin } from "./plugin-harness.js";

// The worked example of docs/plugins.md (plain JavaScript without declarations, so imported by
// URL as the transports import the example hosts), run as a plugin author runs theirs.
type AgencyExample = {
  agencyPlugin(options: { tokenSecret: string; perMinute?: number; now?: () => Date }): {
    plugin: HostPlugin;
    authenticate: Authenticate;
    securitySchemes: Record<string, Record<string, unknown>>;
  };
};
const { agencyPlugin } = (await import(
  new URL("../../../examples/agency-plugin/agency-plugin.mjs", import.meta.url).href
)) as AgencyExample;
// One fixed instant for the API and the plugin (whose clock must be the API's): the per-minute
// limit of the test below is counted in the window of that minute, so no request of it can fall
// in the next one on a slow machine.
const NOW = new Date();
const clock = () => NOW;
const agency = agencyPlugin({ tokenSecret: "harness-test-secret", perMinute: 3, now: clock });

const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Amsterdam" }).format(NOW);

function order(reference: string, amountCents: number) {
  return JSON.stringify({
    type: "pre-incasso",
    reference,
    debtors: [
      {
        type: "individual",
        first_name: "Jan",
        last_name: "Jansen",
        customer_number: `${reference}-K`,
        address: { street: "Teststraat", house_number: "2", postal_code: "9999 ZZ", city: "Testdorp" },
      },
    ],
    invoices: [
      { invoice_number: `${reference}-F1`, invoice_date: today, due_date: today, amount_cents: amountCents },
    ],
  });
}

describePlugin(
  "the agency plugin",
  {
    plugins: [agency.plugin],
    api: {
      authenticate: agency.authenticate,
      securitySchemes: agency.securitySchemes,
      now: clock,
    },
  },
  (t) => {
    it("issues a token on its own route that authenticates beside the keys, and limits the route per caller", async () => {
      const issued = await t.request("/agency/tokens", { method: "POST", headers: t.bearer() });
      expect(issued.status).toBe(201);
      expect(issued.headers.get("ratelimit-limit")).toBe("3");
      expect(issued.headers.get("ratelimit-remaining")).toBe("2");
      const { token } = (await issued.json()) as { token: string };
      const ping = await t.request("/ping", { headers: { authorization: `Bearer ${token}` } });
      expect(ping.status).toBe(200);
      expect(await ping.json()).toMatchObject({
        authenticated: true,
        client: { name: `the agency plugin ${t.transport} Acme` },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (await t.request("/agency/references/X", { headers: { authorization: `Bearer ${token}` } })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      const forged = await t.request("/agency/references/X", {
        headers: { authorization: `Bearer ${token}x` },
      });
      expect(forged.status).toBe(401);
    });

    it("refuses an order under € 25 with the plugin's code, nothing stored", async () => {
      const res = await t.request("/orders", {
        method: "POST",
        headers: { ...t.bearer(), "content-type": "application/json", "idempotency-key": "small" },
        body: order(`SMALL-${t.transport.replaceAll(/\W/g, "-")}`, 2499),
      });
      expect(res.status).toBe(422);
      expect(await res.json()).toMatchObject({ code: "amount_below_minimum", status: 422 });
      const listed = await t.request(`/orders?reference=SMALL-${t.transport.replaceAll(/\W/g, "-")}`, {
        headers: t.bearer(),
      });
      expect(((await listed.json()) as { data: unknown[] }).data).toEqual([]);
    });

    it("notes a placed order in the plugin's table and warns when its reference comes again", async () => {
      const reference = `REF-${t.transport.replaceAll(/\W/g, "-")}`;
      const post = (key: string) =>
        t.request("/orders", {
          method: "POST",
          headers: { ...t.bearer(), "content-type": "application/json", "idempotency-key": key },
          body: order(reference, 2500),
        });
      const first = await post("first");
      expect(first.status).toBe(201);
      const { id } = (await first.json()) as { id: string };
      let rows: { order_id: string }[] = [];
      for (let i = 0; i < 100 && rows.length === 0; i++) {
        if (i > 0) await new Promise((r) => setTimeout(r, 20));
        rows = (
          await t.store.database.query<{ order_id: string }>(
            "SELECT order_id FROM agency_orders WHERE reference = $1",
            [reference],
          )
        ).rows;
      }
      expect(rows).toEqual([{ order_id: id }]);
      const second = await post("second");
      expect(second.status).toBe(201);
      expect(
        ((await second.json()) as { warnings: { code: string }[] }).warnings.map((w) => w.code),
      ).toContain("reference_sent_before");
    });
  },
);
