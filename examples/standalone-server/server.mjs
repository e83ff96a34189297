import { startServer } from "./app.mjs";

const { url } = await startServer({ port: Number(process.env.PORT ?? 3000) });
console.log(`incasso example server on ${url} (try: curl ${url}/ping)`);
