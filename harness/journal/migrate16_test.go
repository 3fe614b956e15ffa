package journal

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestMigrate16 upgrades the version-15 fixture: every row is kept, the
// chain verifies, and a schedule with a claimed, finished run added
// afterwards is chained and read back.
func TestMigrate16(t *testing.T) {
	ctx := context.Background()
	j, _, _ := upgradeFixture(t, 15)
	rep := mustVerify(t, j)
	if !rep.OK {
		t.Fatalf("Verify after the upgrade: %+v", rep.First)
	}
	s, err := j.AddSchedule(ctx, Schedule{Coworker: "demo", Prompt: "tidy up", Every: time.Hour, CatchUp: true})
	if err != nil {
		t.Fatal(err)
	}
	r, ok, err := j.ClaimSlot(ctx, s.ID, s.CreatedAt.Add(time.Hour), 1, "claimed")
	if err != nil || !ok {
		t.Fatalf("ClaimSlot = %v, %v", ok, err)
	}
	if err := j.SetScheduleRun(ctx, r.ID, "ses_fx_closed", "succeeded"); err != nil {
		t.Fatal(err)
	}
	runs, err := j.ScheduleRuns(ctx, s.ID, 10)
	if err != nil || len(runs) != 1 || runs[0].Status != "succeeded" || runs[0].SessionID != "ses_fx_closed" {
		t.Fatalf("ScheduleRuns = %+v, %v", runs, err)
	}
	if end := mustVerify(t, j); !end.OK || end.Entries <= rep.Entries {
		t.Errorf("Verify after the new rows = %+v; want OK with more than %d entries", end, rep.Entries)
	}
}

// TestClaimSlotOnce: journals on one file claiming the same slot at once:
// exactly one claims it; a slot before a claimed one is not claimed
// either; removed schedules are not listed.
func TestClaimSlotOnce(t *testing.T) {
	patientBusy(t)
	ctx := context.Background()
	path := testPath(t)
	js := []*Journal{openAt(t, path), openAt(t, path), openAt(t, path)}
	s, err := js[0].AddSchedule(ctx, Schedule{Coworker: "demo", Prompt: "p", Cron: "0 9 * * 1-5", CatchUp: true})
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 20; round++ {
		slot := s.CreatedAt.Add(time.Duration(round+1) * time.Hour)
		var wg sync.WaitGroup
		won := make([]bool, 6)
		for i := range won {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, ok, err := js[i%3].ClaimSlot(ctx, s.ID, slot, 1, "claimed")
				if err != nil {
					t.Error(err)
				}
				won[i] = ok
			}()
		}
		wg.Wait()
		n := 0
		for _, w := range won {
			if w {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("round %d: %d claims of one slot; want 1", round, n)
		}
		if _, ok, _ := js[1].ClaimSlot(ctx, s.ID, slot.Add(-time.Minute), 1, "claimed"); ok {
			t.Fatalf("round %d: a slot before the claimed one was claimed", round)
		}
	}
	if last, err := js[2].LastSlot(ctx, s.ID); err != nil || !last.Equal(s.CreatedAt.Add(20*time.Hour)) {
		t.Errorf("LastSlot = %v, %v", last, err)
	}
	if err := js[0].RemoveSchedule(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	if all, _ := js[1].Schedules(ctx); len(all) != 0 {
		t.Errorf("Schedules after remove = %+v", all)
	}
	if rep := mustVerify(t, js[0]); !rep.OK {
		t.Fatalf("Verify: %+v", rep.First)
	}
}
