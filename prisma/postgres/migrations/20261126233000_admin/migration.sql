-- AlterTable
ALTER TABLE "user" ADD COLUMN     "banExpires" TIMESTAMP(3),
ADD COLUMN     "banReason" TEXT,
ADD COLUMN     "banned" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "role" TEXT NOT NULL DEFAULT 'user';

-- AlterTable
ALTER TABLE "session" ADD COLUMN     "impersonatedBy" TEXT;

-- CreateIndex
CREATE INDEX "user_createdAt_id_idx" ON "user"("createdAt", "id");

-- CreateIndex
CREATE INDEX "user_banned_createdAt_idx" ON "user"("banned", "createdAt");

-- CreateIndex
CREATE INDEX "user_role_createdAt_idx" ON "user"("role", "createdAt");

