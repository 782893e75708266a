-- Indexes that match each list's filter and order, so a page of a large list is an index range, not a scan plus a sort (ADR 044).
-- DropIndex
DROP INDEX "session_userId_idx";

-- DropIndex
DROP INDEX "member_userId_idx";

-- DropIndex
DROP INDEX "invitation_organizationId_idx";

-- DropIndex
DROP INDEX "invitation_email_idx";

-- CreateIndex
CREATE INDEX "session_userId_updatedAt_idx" ON "session"("userId", "updatedAt");

-- CreateIndex
CREATE INDEX "member_organizationId_createdAt_id_idx" ON "member"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "member_userId_createdAt_idx" ON "member"("userId", "createdAt");

-- CreateIndex
CREATE INDEX "invitation_organizationId_createdAt_idx" ON "invitation"("organizationId", "createdAt");

-- CreateIndex
CREATE INDEX "invitation_email_createdAt_idx" ON "invitation"("email", "createdAt");

