import puppeteer, { type Browser } from "puppeteer-core";
import { CHROMIUM_ARGS } from "../../scraper-container/browser-pool";

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}
