import { serve } from "h3";
import { createApp } from "./app.js";

// WEBHOOK_SIGNING_SECRET may hold several secrets separated by commas while rotating.
const secret = (process.env.WEBHOOK_SIGNING_SECRET ?? "").split(",").filter(Boolean);
if (secret.length === 0) throw new Error("Set WEBHOOK_SIGNING_SECRET to the signing secret you received.");

const app = createApp({
  secret,
  onEvent: (event) => console.log(`${event.type} ${event.id} case ${event.data.case_number ?? "-"}`),
});
const server = serve(app, {
  hostname: process.env.HOST ?? "127.0.0.1",
  port: Number(process.env.PORT ?? 3001),
});
await server.ready();
console.log(`POST ${server.url}webhooks/incasso`);
