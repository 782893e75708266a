-- AlterTable
ALTER TABLE "account" ADD COLUMN     "passwordResetByEmail" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "twoFactor" ADD COLUMN     "otpEnabled" BOOLEAN NOT NULL DEFAULT false;

