import { changeAnnouncementsSuite } from "./change-announcements.suite";

changeAnnouncementsSuite("sqlite");
