import { changeAnnouncementsSuite } from "./change-announcements.suite";

changeAnnouncementsSuite("postgres");
