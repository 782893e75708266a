-- Teams inside organizations (issue 42, docs/decisions/068-teams.md).

-- AlterTable
ALTER TABLE "session" ADD COLUMN "activeTeamId" TEXT;

-- AlterTable
ALTER TABLE "invitation" ADD COLUMN "teamId" TEXT;

-- CreateTable
CREATE TABLE "team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "normalizedName" TEXT NOT NULL,
    "organizationId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "team_organizationId_fkey" FOREIGN KEY ("organizationId") REFERENCES "organization" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "teamMember" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "teamMember_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "teamMember_userId_fkey" FOREIGN KEY ("userId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "session_activeTeamId_idx" ON "session"("activeTeamId");

-- CreateIndex
CREATE UNIQUE INDEX "team_organizationId_normalizedName_key" ON "team"("organizationId", "normalizedName");

-- CreateIndex
CREATE INDEX "team_organizationId_createdAt_id_idx" ON "team"("organizationId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "teamMember_teamId_userId_key" ON "teamMember"("teamId", "userId");

-- CreateIndex
CREATE INDEX "teamMember_teamId_createdAt_id_idx" ON "teamMember"("teamId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "teamMember_userId_createdAt_id_idx" ON "teamMember"("userId", "createdAt", "id");
