// The Functions v4 entry (package.json "main"): one anonymous HTTP trigger for every route. In
// Azure, DATABASE_URL comes from the app settings; the webhook dispatcher and the letter runner
// run in a worker (`incasso worker`), not in a function instance that may be frozen at any time.
import azure from "@azure/functions";
import { createIncasso } from "@incasso/app";
import { registerIncassoFunction } from "@incasso/azure-functions";
import { ROUTE_PREFIX } from "../../app.mjs";

const incasso = await createIncasso(undefined, { webhooks: false, letters: false, operatorEndpoint: false });
registerIncassoFunction(azure.app, incasso.api, { routePrefix: ROUTE_PREFIX });
