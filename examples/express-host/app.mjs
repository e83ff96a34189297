import { incassoExpress } from "@incasso/express";
import { createApi } from "@incasso/server";
import express from "express";

/** The host's own Express app, with the incasso API mounted at /api/v1. */
export function createApp() {
  const app = express();
  // Mount the API before any body parser: it reads the raw body itself (size limit, JSON errors).
  app.use("/api/v1", incassoExpress(createApi()));
  // The host's own routes keep their parsers.
  app.use(express.json());
  app.post("/internal/notes", (req, res) => {
    res.status(201).json({ saved: req.body });
  });
  return app;
}
