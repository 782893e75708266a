-- AlterTable
ALTER TABLE "user" ADD COLUMN     "credentialsVersion" INTEGER NOT NULL DEFAULT 0;

