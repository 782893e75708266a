-- AlterTable
ALTER TABLE "oidcConsent" ADD COLUMN     "tokensIssuedAt" TIMESTAMP(3);

