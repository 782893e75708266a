// Issue 44: pages in the reader's language. Without JavaScript the picker works (same page after, a year-long
// HttpOnly cookie, never another site), <html lang dir> follows the language, the saved language beats the
// browser's header; with JavaScript the page hydrates to the same words; axe in de and ar; no sideways scroll at
// 320 px in de, ar and he.
import type { Page } from "@playwright/test";
import { authorizationRequest, registerClient, relyingParty } from "../support/oidc-clients";
import { expect, expectNoAxeViolations, test, waitForHydration } from "./fixtures";

async function pickLanguage(page: Page, name: string) {
  await page.getByLabel(/^(Language|Sprache|Langue|Idioma|اللغة|שפה)$/).selectOption({ label: name });
  await page.getByTestId("language-picker").getByRole("button").click();
}

/** Signs in whatever language the page is in (the fixtures' helper reads English labels). */
async function signInHere(page: Page, user: { email: string; password: string }) {
  await page.goto("/sign-in");
  await page.locator('main input[name="email"]').fill(user.email);
  await page.locator('main input[name="password"]').fill(user.password);
  await page.locator("main form").first().locator('button[type="submit"]').first().click();
  await expect(page).toHaveURL("/account");
}

async function expectNoSidewaysScroll(page: Page, label: string) {
  await page.setViewportSize({ width: 320, height: 640 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `no sideways scrolling at 320px (${label})`).toBeLessThanOrEqual(0);
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "de-AT" });

  test("the browser's language, then the picker: same page, lasting, right to left", async ({ page, context, consoleErrors }) => {
    await page.goto("/?from=picker");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Anmeldung für Ihre Apps");
    await expect(page).toHaveTitle("Anmeldung für Ihre Apps · Latchkey");
    await expect(page.getByRole("option", { name: "العربية" })).toHaveAttribute("lang", "ar");
    await expectNoAxeViolations(page, "de");
    await expectNoSidewaysScroll(page, "de");

    await pickLanguage(page, "العربية");
    await expect(page).toHaveURL(/\/\?from=picker$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("تسجيل الدخول لتطبيقاتك");
    await expectNoAxeViolations(page, "ar");
    await expectNoSidewaysScroll(page, "ar");
    const cookie = (await context.cookies()).find((c) => c.name === "latchkey.language");
    expect(cookie?.value).toBe("ar");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000);

    // Lasting: another page, the error page too, in Arabic.
    await page.goto("/no-such-page");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("الصفحة غير موجودة");
    await expect(page).toHaveTitle("خطأ: الصفحة غير موجودة · Latchkey");
    await expect(page.getByTestId("language-picker")).toBeVisible();

    await pickLanguage(page, "עברית");
    await expect(page).toHaveURL(/\/no-such-page$/);
    // The 404s asked for on purpose are not the page's errors.
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !line.startsWith("404 for GET")));
    await expect(page.locator("html")).toHaveAttribute("lang", "he");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("הדף לא נמצא");
    await expectNoSidewaysScroll(page, "he");
    await page.goto("/");
    await expectNoSidewaysScroll(page, "he home");
  });

  test("the picker sends people back to this site only, and needs the form's origin", async ({ request, baseURL }) => {
    for (const target of ["https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const answer = await request.post("/language", { form: { lang: "fr", redirectTo: target }, headers: { Origin: baseURL! }, maxRedirects: 0 });
      expect(answer.status(), target).toBe(302);
      expect(answer.headers().location, target).toBe("/");
    }
    const kept = await request.post("/language", { form: { lang: "fr", redirectTo: "/sign-in?redirectTo=%2Faccount" }, headers: { Origin: baseURL! }, maxRedirects: 0 });
    expect(kept.headers().location).toBe("/sign-in?redirectTo=%2Faccount");
    const forged = await request.post("/language", { form: { lang: "fr", redirectTo: "/" }, headers: { Origin: "https://evil.example" }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    expect(forged.headers()["set-cookie"] ?? "").not.toContain("latchkey.language");
  });

  test("signed in, the saved language beats the browser's header, and the picker saves it", async ({ page, user, openContext }) => {
    await signInHere(page, user); // saved "en" at sign-up (its request asked for no language)
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await pickLanguage(page, "עברית");
    await expect(page.locator("html")).toHaveAttribute("lang", "he");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");

    // Another browser asking for German (this file's de-AT): once signed in, the account's Hebrew wins.
    const elsewhere = await openContext();
    await elsewhere.page.goto("/");
    await expect(elsewhere.page.locator("html")).toHaveAttribute("lang", "de");
    await signInHere(elsewhere.page, user);
    await expect(elsewhere.page.locator("html")).toHaveAttribute("lang", "he");
    // Signing in set the picker's cookie to the account's language: signed out, the page stays Hebrew.
    const cookie = (await elsewhere.context.cookies()).find((c) => c.name === "latchkey.language");
    expect(cookie?.value).toBe("he");
  });
});

test.describe("the sign-in pages, without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "de-DE" });

  test("in German: labels, the server's field messages, the error title", async ({ page }) => {
    await page.goto("/sign-in");
    await expect(page).toHaveTitle("Anmelden · Latchkey");
    await expect(page.getByLabel("E-Mail-Adresse oder Benutzername")).toBeVisible();
    await page.getByRole("button", { name: "Anmelden", exact: true }).click();
    await expect(page).toHaveTitle("Fehler: Anmelden · Latchkey");
    await expect(page.locator(".error-summary")).toContainText("Geben Sie Ihre E-Mail-Adresse oder Ihren Benutzernamen ein.");
    await expect(page.locator(".error-summary h2")).toHaveText("Es gibt ein Problem");
    await expectNoAxeViolations(page, "sign-in, de, refused");
    await page.goto("/sign-up");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Konto erstellen");
    await page.getByLabel("Passwort").fill("kurz");
    await page.getByRole("button", { name: "Registrieren", exact: true }).click();
    await expect(page.locator(".error-summary")).toContainText("Verwenden Sie mindestens 8 Zeichen.");
    await expectNoSidewaysScroll(page, "sign-up de");

    // The e-mailed code: the sent page says where it went, in German, the address kept left to right.
    await page.goto("/sign-in/code");
    await page.getByLabel("E-Mail-Adresse").fill("someone@example.com");
    await page.getByRole("button", { name: "Anmeldecode per E-Mail senden" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Code eingeben");
    await expect(page.getByRole("status")).toContainText("Falls sich someone@example.com hier anmelden kann");
    await expect(page.locator('[role="status"] [dir="ltr"]')).toHaveText("someone@example.com");
    await page.getByRole("button", { name: "Anmelden", exact: true }).click();
    await expect(page.locator(".error-summary")).toContainText("Geben Sie den Code aus der E-Mail ein.");
    // Spec §2's error page, outside Remix, in German with its picker.
    await page.goto("/api/auth/error?error=access_denied");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Wir konnten Sie nicht anmelden");
    await expect(page.getByTestId("error-code")).toHaveText("access_denied");
    await expectNoAxeViolations(page, "error page, de");
    await pickLanguage(page, "עברית");
    await expect(page).toHaveURL(/\/api\/auth\/error\?error=access_denied$/);
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("לא הצלחנו לחבר אותך");
    await expectNoSidewaysScroll(page, "error page, he");
    await pickLanguage(page, "Deutsch");
    await page.setViewportSize({ width: 1280, height: 720 });
    // A verification link's refusal, in German.
    await page.goto("/email-verified?error=token_expired");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Wir konnten Ihre E-Mail-Adresse nicht bestätigen");
    await expect(page.locator("main")).toContainText("Der Link ist abgelaufen.");
  });

  test("an application's ui_locales beats the browser's header on its sign-in page", async ({ page, appServer }) => {
    const app = await registerClient(appServer.database, { name: "Team Wiki", redirectUri: "https://wiki.example.com/callback" });
    const config = await relyingParty(app, appServer.baseUrl);
    const { url } = await authorizationRequest(config, app, { ui_locales: "ja fr-CA es" });
    await page.goto(url.href);
    await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Foauth2%2Finteraction%2F/);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Se connecter");
    await expect(page.getByTestId("continue-to")).toHaveText("pour continuer vers Team Wiki");
  });

  for (const [language, heading] of [["ar", "إنشاء حساب"], ["he", "יצירת חשבון"]] as const) {
    test(`sign-up and password pages in ${language}: right to left, axe, no sideways scroll`, async ({ page }) => {
      await page.goto("/sign-up");
      await pickLanguage(page, language === "ar" ? "العربية" : "עברית");
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      await expectNoAxeViolations(page, `sign-up ${language}`);
      await expectNoSidewaysScroll(page, `sign-up ${language}`);
      for (const path of ["/sign-in", "/forgot-password", "/reset-password?token=nothing", "/sign-in/code", "/email-verified", "/email-verified?error=token_expired"]) {
        await page.goto(path);
        await expect(page.locator("html")).toHaveAttribute("lang", language);
        await expectNoAxeViolations(page, `${path} ${language}`);
        await expectNoSidewaysScroll(page, `${path} ${language}`);
        await page.setViewportSize({ width: 1280, height: 720 });
      }
    });
  }
});

test.describe("the account overview and profile, without JavaScript", () => {
  test.use({ javaScriptEnabled: false, locale: "ar" });

  test("in Arabic, right to left: the overview, the profile, a field message and the confirmation", async ({ page, user }) => {
    await signInHere(page, user);
    await pickLanguage(page, "العربية");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("حسابك");
    await expect(page.getByRole("navigation", { name: "الحساب" }).getByRole("link", { name: "الملف الشخصي" })).toBeVisible();
    await expect(page.getByTestId("account-email")).toHaveAttribute("dir", "ltr");
    await expectNoAxeViolations(page, "account, ar");
    await expectNoSidewaysScroll(page, "account, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account/profile");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("الملف الشخصي");
    await page.getByLabel("الاسم").fill("");
    await page.getByRole("button", { name: "حفظ الملف الشخصي" }).click();
    await expect(page.locator(".error-summary")).toContainText("أدخل اسمك.");
    await expect(page).toHaveTitle("خطأ: الملف الشخصي · Latchkey");
    await page.getByLabel("الاسم").fill("نور");
    await page.getByRole("button", { name: "حفظ الملف الشخصي" }).click();
    await expect(page.getByRole("status")).toHaveText("تم حفظ الملف الشخصي.");
    await expectNoAxeViolations(page, "profile, ar");
    await expectNoSidewaysScroll(page, "profile, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account/sessions");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("الجلسات");
    const row = page.getByTestId("session-row").first();
    await expect(row).toContainText("هذا الجهاز");
    await expect(row).toContainText("نشطة الآن");
    await expectNoAxeViolations(page, "sessions, ar");
    await expectNoSidewaysScroll(page, "sessions, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account/security");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("الأمان");
    await page.getByLabel("كلمة المرور الحالية").fill("not the password at all");
    await page.getByLabel("كلمة المرور الجديدة").fill("another long password");
    await page.getByRole("button", { name: "تغيير كلمة المرور" }).click();
    await expect(page.locator(".error-summary")).toContainText("هذه ليست كلمة المرور الحالية.");
    await expectNoAxeViolations(page, "security, ar");
    await expectNoSidewaysScroll(page, "security, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account/delete");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("حذف الحساب");
    await page.getByLabel("اكتب عنوان بريدك الإلكتروني للتأكيد").fill("someone-else@example.com");
    await page.getByLabel("كلمة المرور").fill(user.password);
    await page.locator("main form").getByRole("button", { name: "حذف الحساب" }).click();
    await expect(page.locator(".error-summary")).toContainText("هذا ليس عنوان بريدك الإلكتروني.");
    await expectNoAxeViolations(page, "delete, ar");
    await expectNoSidewaysScroll(page, "delete, ar");
    await page.goto("/account/two-factor");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("المصادقة الثنائية");
    await expect(page.getByRole("button", { name: "تمكين المصادقة الثنائية" })).toBeVisible();
    await expectNoAxeViolations(page, "two-factor, ar");
    await expectNoSidewaysScroll(page, "two-factor, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account/passkeys");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("مفاتيح المرور");
    await expect(page.locator("main")).toContainText("ليس لديك مفاتيح مرور بعد.");
    await expectNoAxeViolations(page, "passkeys, ar");
    await expectNoSidewaysScroll(page, "passkeys, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account/linked-accounts?error=access_denied");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("الحسابات المرتبطة");
    await expect(page.locator(".error-summary")).toContainText("ألغيت تسجيل الدخول لدى الموفر.");
    await expect(page).toHaveTitle("خطأ: الحسابات المرتبطة · Latchkey");
    await expectNoAxeViolations(page, "linked accounts, ar");
    await expectNoSidewaysScroll(page, "linked accounts, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account/applications");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("التطبيقات");
    await expect(page.locator("main")).toContainText("لم تسمح لأي تطبيق بعد.");
    await expectNoAxeViolations(page, "applications, ar");
    await expectNoSidewaysScroll(page, "applications, ar");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto("/account-deleted?error=invalid_token");
    await expect(page).toHaveTitle("خطأ: لم يُحذف الحساب · Latchkey");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("لم يُحذف حسابك");
  });
});

test.describe("the sign-in pages, with JavaScript", () => {
  test.use({ javaScriptEnabled: true, locale: "de-DE" });

  test("the browser finds the same problem in the same words", async ({ page }) => {
    await page.goto("/sign-in");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Anmelden", exact: true }).click();
    await expect(page.locator(".error-summary")).toContainText("Geben Sie Ihre E-Mail-Adresse oder Ihren Benutzernamen ein.");
    await expect(page).toHaveTitle("Fehler: Anmelden · Latchkey");
  });
});

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true, locale: "ar" });

  test("the page hydrates to the server's words and keeps the language moving between pages", async ({ page, consoleErrors }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
    await page.waitForFunction(() => {
      const form = document.querySelector("footer form");
      return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
    });
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("تسجيل الدخول لتطبيقاتك");
    expect(consoleErrors, "no hydration mismatch").toEqual([]);
    await page.locator(".hero").getByRole("link", { name: "تسجيل الدخول" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await expect(page.getByTestId("language-picker").getByRole("button")).toHaveText("تغيير اللغة");
  });

  test("signing in without a page load to an account saved in another language: the next page is in it", async ({ page, request, baseURL }) => {
    const account = { name: "Lena", email: `lena-${Date.now()}@example.com`, password: "correct horse battery staple" };
    const signUp = await request.post("/api/auth/sign-up/email", { data: { ...account, locale: "de" } });
    expect(signUp.status()).toBe(200);
    await page.goto("/sign-in");
    await expect(page.locator("html")).toHaveAttribute("lang", "ar");
    await waitForHydration(page);
    await page.locator('main input[name="email"]').fill(account.email);
    await page.locator('main input[name="password"]').fill(account.password);
    await page.locator("main form").first().locator('button[type="submit"]').first().click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    await expect(page.getByRole("heading", { level: 1 })).not.toHaveText(/[\u0600-\u06FF]/);
    await expect(page.getByTestId("language-picker").getByRole("button")).toHaveText("Sprache ändern");
    expect(baseURL).toBeTruthy();
  });
});

test.describe("the picker with JavaScript", () => {
  test.use({ javaScriptEnabled: true, locale: "en-GB" });

  test("a language picked with the pointer applies at once; arrow keys wait for the button", async ({ page }) => {
    await page.goto("/sign-in?from=picker");
    await page.waitForFunction(() => {
      const form = document.querySelector('[data-testid="language-picker"]');
      return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
    });
    const select = page.getByLabel("Language", { exact: true });
    // The keyboard: the value moves, the page stays until the button is pressed.
    await select.focus();
    await select.press("ArrowDown");
    await expect(select).not.toHaveValue("en");
    await page.waitForTimeout(300);
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page).toHaveURL(/\/sign-in\?from=picker$/);
    // The pointer: picked from the list, applied at once, the same page.
    await select.dispatchEvent("pointerdown");
    await select.selectOption({ label: "Español" });
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page).toHaveURL(/\/sign-in\?from=picker$/);
  });
});
