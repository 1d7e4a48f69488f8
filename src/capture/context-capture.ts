import type { BrowserContext, Page } from '@playwright/test';
import { DaebugCaptureError } from '../errors';
import { attachChromiumPage, lifecycle } from './chromium';
import { attachGenericPage } from './generic';
import { RealmNames } from './realms';
import type { Recorder } from './recorder';

/** Attaches capture to every page of a browser context, popups included, and detaches at the end. */
export class ContextCapture {
  readonly realms = new RealmNames();
  private readonly attached = new Map<Page, Promise<void>>();
  private readonly detachers: Array<(closing: boolean) => Promise<void>> = [];
  private readonly contexts = new Set<BrowserContext>();

  constructor(private readonly recorder: Recorder) {}

  attachContext(context: BrowserContext): void {
    if (this.contexts.has(context)) return;
    this.contexts.add(context);
    const onPage = (page: Page) => void this.attachPage(page);
    context.on('page', onPage);
    this.detachers.push(async () => void context.off('page', onPage));
    const browser = context.browser();
    if (browser) {
      const onDisconnect = () => void lifecycle(this.recorder, 'browser', 'browser.disconnected', 'The browser disconnected (it crashed, was closed or was killed).');
      browser.on('disconnected', onDisconnect);
      this.detachers.push(async () => void browser.off('disconnected', onDisconnect));
    }
    for (const page of context.pages()) void this.attachPage(page);
  }

  /** Resolves once the page is captured; capture failures become diagnostics, never test failures. */
  attachPage(page: Page): Promise<void> {
    let ready = this.attached.get(page);
    if (!ready) {
      ready = this.doAttach(page).catch((error: unknown) => {
        if (!page.isClosed()) this.recorder.diagnose(new DaebugCaptureError(`attaching to ${this.realms.page(page)}`, error));
      });
      this.attached.set(page, ready);
    }
    return ready;
  }

  private async doAttach(page: Page): Promise<void> {
    const realm = this.realms.page(page);
    const recorder = this.recorder;
    recorder.addRealm(realm);
    const onCrash = () => void lifecycle(recorder, realm, 'page.crash', 'The page crashed.');
    page.on('crash', onCrash);
    this.detachers.push(async () => void page.off('crash', onCrash));
    const context = page.context();
    const target = { recorder, realms: this.realms };
    // Persistent contexts have no Browser object: try CDP and fall back when it is not there.
    const browserName = context.browser()?.browserType().name();
    if (browserName === undefined || browserName === 'chromium') {
      try {
        this.detachers.push(await attachChromiumPage(context, page, realm, target));
        return;
      } catch (error) {
        if (browserName === 'chromium' || page.isClosed()) throw error;
      }
    }
    const onNavigated = (frame: import('@playwright/test').Frame) => {
      if (frame === page.mainFrame()) lifecycle(recorder, realm, 'navigation', frame.url());
    };
    page.on('framenavigated', onNavigated);
    this.detachers.push(async () => void page.off('framenavigated', onNavigated));
    this.detachers.push(attachGenericPage(page, realm, target));
  }

  /**
   * Removes every listener. `contextClosing`: Playwright is about to close the context, which ends daebug's CDP
   * sessions too, so the round trip of detaching each one is skipped.
   */
  async detach(options: { contextClosing?: boolean } = {}): Promise<void> {
    await Promise.allSettled([...this.attached.values()]);
    const closing = options.contextClosing ?? false;
    await Promise.allSettled(this.detachers.splice(0).map((detach) => detach(closing)));
  }
}
