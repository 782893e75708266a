-- AlterTable
ALTER TABLE "oidcConsent" ADD COLUMN "tokensIssuedAt" DATETIME;

