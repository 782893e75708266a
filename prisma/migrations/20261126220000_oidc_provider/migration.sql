-- CreateTable
CREATE TABLE "oidcModel" (
    "model" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "grantId" TEXT,
    "userCode" TEXT,
    "uid" TEXT,
    "accountId" TEXT,
    "clientId" TEXT,
    "expiresAt" DATETIME,
    "consumedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("model", "id")
);

-- CreateTable
CREATE TABLE "oidcSigningKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "alg" TEXT NOT NULL,
    "privateJwk" TEXT NOT NULL,
    "publicJwk" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" DATETIME
);

-- CreateTable
CREATE TABLE "oidcClient" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "secretHash" TEXT,
    "redirectUris" TEXT NOT NULL,
    "postLogoutRedirectUris" TEXT NOT NULL DEFAULT '[]',
    "trusted" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "oidcConsent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "userId" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "grantId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "oidcConsent_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "oidcConsent_clientId_fkey" FOREIGN KEY ("clientId") REFERENCES "oidcClient" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "oidcModel_grantId_idx" ON "oidcModel"("grantId");

-- CreateIndex
CREATE INDEX "oidcModel_uid_idx" ON "oidcModel"("uid");

-- CreateIndex
CREATE INDEX "oidcModel_userCode_idx" ON "oidcModel"("userCode");

-- CreateIndex
CREATE INDEX "oidcModel_accountId_clientId_idx" ON "oidcModel"("accountId", "clientId");

-- CreateIndex
CREATE INDEX "oidcModel_expiresAt_idx" ON "oidcModel"("expiresAt");

-- CreateIndex
CREATE INDEX "oidcSigningKey_alg_retiredAt_idx" ON "oidcSigningKey"("alg", "retiredAt");

-- CreateIndex
CREATE INDEX "oidcConsent_clientId_idx" ON "oidcConsent"("clientId");

-- CreateIndex
CREATE UNIQUE INDEX "oidcConsent_userId_clientId_key" ON "oidcConsent"("userId", "clientId");

