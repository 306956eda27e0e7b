import puppeteer, { type Browser } from "puppeteer-core";
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATH } from "../../scraper-container/browser-pool";

export function launchChromium(): Promise<Browser> {
  return puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: "shell" });
}
