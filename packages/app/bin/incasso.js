#!/usr/bin/env node
// The published bin points here, so installing the package never depends on dist/ existing yet.
import "../dist/cli.js";
