-- ADR 027. Written as ALTER TABLE … ADD COLUMN rather than Prisma's table redefinition: the result is the same
-- table (the new columns are last), and a migration that copies the whole table could not drop columns that
-- another migration of the same round adds.

-- AlterTable
ALTER TABLE "account" ADD COLUMN "passwordResetByEmail" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "twoFactor" ADD COLUMN "otpEnabled" BOOLEAN NOT NULL DEFAULT false;
