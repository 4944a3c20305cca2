/* The ovni 1.14 event table: every MCV the emulator knows and the payload
 * its signature declares. Written by hand from
 * ../shared/specs/ovni-events-1.14.md (365 events); keep sorted by MCV bytes
 * (the lookup is a binary search). `payload` is the byte size of the normal
 * payload (0, 4, 8, 12 or 16), or OVNI_EV_JUMBO_SIG for `+` events whose
 * arguments travel as jumbo data. */
#include "ovni_events.h"

#include <string.h>

static const ovni_evspec table[] = {
	{"6BB", 0}, /* 6BB */
	{"6BF", 0}, /* 6BF */
	{"6BU", 0}, /* 6BU */
	{"6BW", 0}, /* 6BW */
	{"6Bb", 0}, /* 6Bb */
	{"6Bf", 0}, /* 6Bf */
	{"6Bu", 0}, /* 6Bu */
	{"6Bw", 0}, /* 6Bw */
	{"6C[", 0}, /* 6C[ */
	{"6C]", 0}, /* 6C] */
	{"6DR", 0}, /* 6DR */
	{"6DU", 0}, /* 6DU */
	{"6Dr", 0}, /* 6Dr */
	{"6Du", 0}, /* 6Du */
	{"6F[", 0}, /* 6F[ */
	{"6F]", 0}, /* 6F] */
	{"6HE", 0}, /* 6HE */
	{"6HL", 0}, /* 6HL */
	{"6HM", 0}, /* 6HM */
	{"6HW", 0}, /* 6HW */
	{"6He", 0}, /* 6He */
	{"6Hl", 0}, /* 6Hl */
	{"6Hm", 0}, /* 6Hm */
	{"6Hw", 0}, /* 6Hw */
	{"6MA", 0}, /* 6MA */
	{"6MF", 0}, /* 6MF */
	{"6Ma", 0}, /* 6Ma */
	{"6Mf", 0}, /* 6Mf */
	{"6O[", 0}, /* 6O[ */
	{"6O]", 0}, /* 6O] */
	{"6Pa", 0}, /* 6Pa */
	{"6Pp", 0}, /* 6Pp */
	{"6Pr", 0}, /* 6Pr */
	{"6S@", 0}, /* 6S@ */
	{"6SA", 0}, /* 6SA */
	{"6SP", 0}, /* 6SP */
	{"6S[", 0}, /* 6S[ */
	{"6S]", 0}, /* 6S] */
	{"6Sa", 0}, /* 6Sa */
	{"6Sp", 0}, /* 6Sp */
	{"6Sr", 0}, /* 6Sr */
	{"6Ss", 0}, /* 6Ss */
	{"6Tc", 8}, /* 6Tc(u32 taskid, u32 typeid) */
	{"6Te", 4}, /* 6Te(u32 taskid) */
	{"6Tp", 4}, /* 6Tp(u32 taskid) */
	{"6Tr", 4}, /* 6Tr(u32 taskid) */
	{"6Tx", 4}, /* 6Tx(u32 taskid) */
	{"6U[", 0}, /* 6U[ */
	{"6U]", 0}, /* 6U] */
	{"6W*", 0}, /* 6W* */
	{"6WG", 0}, /* 6WG */
	{"6WM", 0}, /* 6WM */
	{"6WR", 0}, /* 6WR */
	{"6WS", 0}, /* 6WS */
	{"6WT", 0}, /* 6WT */
	{"6WW", 0}, /* 6WW */
	{"6W[", 0}, /* 6W[ */
	{"6W]", 0}, /* 6W] */
	{"6Wg", 0}, /* 6Wg */
	{"6Wm", 0}, /* 6Wm */
	{"6Wr", 0}, /* 6Wr */
	{"6Ws", 0}, /* 6Ws */
	{"6Wt", 0}, /* 6Wt */
	{"6Ww", 0}, /* 6Ww */
	{"6Yc", OVNI_EV_JUMBO_SIG}, /* 6Yc+(u32 typeid, str label) */
	{"6t[", 0}, /* 6t[ */
	{"6t]", 0}, /* 6t] */
	{"DC[", 0}, /* DC[ */
	{"DC]", 0}, /* DC] */
	{"DI[", 0}, /* DI[ */
	{"DI]", 0}, /* DI] */
	{"DP[", 0}, /* DP[ */
	{"DP]", 0}, /* DP] */
	{"DR[", 0}, /* DR[ */
	{"DR]", 0}, /* DR] */
	{"DS[", 0}, /* DS[ */
	{"DS]", 0}, /* DS] */
	{"DT[", 0}, /* DT[ */
	{"DT]", 0}, /* DT] */
	{"DU[", 0}, /* DU[ */
	{"DU]", 0}, /* DU] */
	{"DW[", 0}, /* DW[ */
	{"DW]", 0}, /* DW] */
	{"KCI", 0}, /* KCI */
	{"KCO", 0}, /* KCO */
	{"MAA", 0}, /* MAA */
	{"MAG", 0}, /* MAG */
	{"MAR", 0}, /* MAR */
	{"MAa", 0}, /* MAa */
	{"MAg", 0}, /* MAg */
	{"MAr", 0}, /* MAr */
	{"MCB", 0}, /* MCB */
	{"MCE", 0}, /* MCE */
	{"MCS", 0}, /* MCS */
	{"MCb", 0}, /* MCb */
	{"MCe", 0}, /* MCe */
	{"MCs", 0}, /* MCs */
	{"MDB", 0}, /* MDB */
	{"MDG", 0}, /* MDG */
	{"MDS", 0}, /* MDS */
	{"MDb", 0}, /* MDb */
	{"MDg", 0}, /* MDg */
	{"MDs", 0}, /* MDs */
	{"MEB", 0}, /* MEB */
	{"MES", 0}, /* MES */
	{"ME[", 0}, /* ME[ */
	{"ME]", 0}, /* ME] */
	{"MEb", 0}, /* MEb */
	{"MEs", 0}, /* MEs */
	{"MRO", 0}, /* MRO */
	{"MRS", 0}, /* MRS */
	{"MR[", 0}, /* MR[ */
	{"MR]", 0}, /* MR] */
	{"MRo", 0}, /* MRo */
	{"MRs", 0}, /* MRs */
	{"MSB", 0}, /* MSB */
	{"MSR", 0}, /* MSR */
	{"MSS", 0}, /* MSS */
	{"MS[", 0}, /* MS[ */
	{"MS]", 0}, /* MS] */
	{"MSb", 0}, /* MSb */
	{"MSr", 0}, /* MSr */
	{"MSs", 0}, /* MSs */
	{"MTA", 0}, /* MTA */
	{"MTS", 0}, /* MTS */
	{"MTY", 0}, /* MTY */
	{"MT[", 0}, /* MT[ */
	{"MT]", 0}, /* MT] */
	{"MTa", 0}, /* MTa */
	{"MTs", 0}, /* MTs */
	{"MTy", 0}, /* MTy */
	{"MUF", 0}, /* MUF */
	{"MUI", 0}, /* MUI */
	{"MUT", 0}, /* MUT */
	{"MUf", 0}, /* MUf */
	{"MUi", 0}, /* MUi */
	{"MUt", 0}, /* MUt */
	{"MWA", 0}, /* MWA */
	{"MWS", 0}, /* MWS */
	{"MWY", 0}, /* MWY */
	{"MW[", 0}, /* MW[ */
	{"MW]", 0}, /* MW] */
	{"MWa", 0}, /* MWa */
	{"MWs", 0}, /* MWs */
	{"MWy", 0}, /* MWy */
	{"MaA", 0}, /* MaA */
	{"MaG", 0}, /* MaG */
	{"MaR", 0}, /* MaR */
	{"Maa", 0}, /* Maa */
	{"Mag", 0}, /* Mag */
	{"Mar", 0}, /* Mar */
	{"McB", 0}, /* McB */
	{"McE", 0}, /* McE */
	{"McS", 0}, /* McS */
	{"Mcb", 0}, /* Mcb */
	{"Mce", 0}, /* Mce */
	{"Mcs", 0}, /* Mcs */
	{"MdB", 0}, /* MdB */
	{"MdG", 0}, /* MdG */
	{"MdS", 0}, /* MdS */
	{"Mdb", 0}, /* Mdb */
	{"Mdg", 0}, /* Mdg */
	{"Mds", 0}, /* Mds */
	{"MeB", 0}, /* MeB */
	{"MeS", 0}, /* MeS */
	{"Me[", 0}, /* Me[ */
	{"Me]", 0}, /* Me] */
	{"Meb", 0}, /* Meb */
	{"Mes", 0}, /* Mes */
	{"MrO", 0}, /* MrO */
	{"MrS", 0}, /* MrS */
	{"Mr[", 0}, /* Mr[ */
	{"Mr]", 0}, /* Mr] */
	{"Mro", 0}, /* Mro */
	{"Mrs", 0}, /* Mrs */
	{"MsB", 0}, /* MsB */
	{"MsR", 0}, /* MsR */
	{"MsS", 0}, /* MsS */
	{"Ms[", 0}, /* Ms[ */
	{"Ms]", 0}, /* Ms] */
	{"Msb", 0}, /* Msb */
	{"Msr", 0}, /* Msr */
	{"Mss", 0}, /* Mss */
	{"OAr", 8}, /* OAr(i32 cpu, i32 tid) */
	{"OAs", 4}, /* OAs(i32 cpu) */
	{"OB.", 0}, /* OB. */
	{"OCn", 4}, /* OCn(i32 cpu) */
	{"OF[", 0}, /* OF[ */
	{"OF]", 0}, /* OF] */
	{"OHC", 12}, /* OHC(i32 cpu, u64 tag) */
	{"OHc", 0}, /* OHc */
	{"OHe", 0}, /* OHe */
	{"OHp", 0}, /* OHp */
	{"OHr", 0}, /* OHr */
	{"OHw", 0}, /* OHw */
	{"OHx", 16}, /* OHx(i32 cpu, i32 tid, u64 tag) */
	{"OM=", 12}, /* OM=(i64 value, i32 type) */
	{"OM[", 12}, /* OM[(i64 value, i32 type) */
	{"OM]", 12}, /* OM](i64 value, i32 type) */
	{"OU[", 0}, /* OU[ */
	{"OU]", 0}, /* OU] */
	{"PA[", 0}, /* PA[ */
	{"PA]", 0}, /* PA] */
	{"PBB", 0}, /* PBB */
	{"PBF", 0}, /* PBF */
	{"PBJ", 0}, /* PBJ */
	{"PBS", 0}, /* PBS */
	{"PBT", 0}, /* PBT */
	{"PBb", 0}, /* PBb */
	{"PBf", 0}, /* PBf */
	{"PBj", 0}, /* PBj */
	{"PBs", 0}, /* PBs */
	{"PBt", 0}, /* PBt */
	{"PCF", 0}, /* PCF */
	{"PCI", 0}, /* PCI */
	{"PCf", 0}, /* PCf */
	{"PCi", 0}, /* PCi */
	{"PH[", 0}, /* PH[ */
	{"PH]", 0}, /* PH] */
	{"PIA", 0}, /* PIA */
	{"PIR", 0}, /* PIR */
	{"PI[", 0}, /* PI[ */
	{"PI]", 0}, /* PI] */
	{"PIa", 0}, /* PIa */
	{"PIr", 0}, /* PIr */
	{"PMI", 0}, /* PMI */
	{"PMU", 0}, /* PMU */
	{"PMi", 0}, /* PMi */
	{"PMu", 0}, /* PMu */
	{"POc", OVNI_EV_JUMBO_SIG}, /* POc+(u32 typeid, str label) */
	{"PPc", 8}, /* PPc(u32 taskid, u32 typeid) */
	{"PPe", 4}, /* PPe(u32 taskid) */
	{"PPx", 4}, /* PPx(u32 taskid) */
	{"PQe", 4}, /* PQe(u32 typeid) */
	{"PQx", 4}, /* PQx(u32 typeid) */
	{"PTA", 0}, /* PTA */
	{"PTC", 0}, /* PTC */
	{"PTD", 0}, /* PTD */
	{"PTG", 0}, /* PTG */
	{"PTI", 0}, /* PTI */
	{"PTR", 0}, /* PTR */
	{"PTS", 0}, /* PTS */
	{"PTT", 0}, /* PTT */
	{"PTW", 0}, /* PTW */
	{"PTY", 0}, /* PTY */
	{"PT[", 0}, /* PT[ */
	{"PT]", 0}, /* PT] */
	{"PTa", 0}, /* PTa */
	{"PTc", 0}, /* PTc */
	{"PTd", 0}, /* PTd */
	{"PTg", 0}, /* PTg */
	{"PTi", 0}, /* PTi */
	{"PTr", 0}, /* PTr */
	{"PTs", 0}, /* PTs */
	{"PTt", 0}, /* PTt */
	{"PTw", 0}, /* PTw */
	{"PTy", 0}, /* PTy */
	{"PWC", 0}, /* PWC */
	{"PWD", 0}, /* PWD */
	{"PWE", 0}, /* PWE */
	{"PWI", 0}, /* PWI */
	{"PWS", 0}, /* PWS */
	{"PWY", 0}, /* PWY */
	{"PWc", 0}, /* PWc */
	{"PWd", 0}, /* PWd */
	{"PWe", 0}, /* PWe */
	{"PWi", 0}, /* PWi */
	{"PWs", 0}, /* PWs */
	{"PWy", 0}, /* PWy */
	{"TCI", 0}, /* TCI */
	{"TCi", 0}, /* TCi */
	{"TGC", 0}, /* TGC */
	{"TGc", 0}, /* TGc */
	{"TLI", 0}, /* TLI */
	{"TLP", 0}, /* TLP */
	{"TLi", 0}, /* TLi */
	{"TLp", 0}, /* TLp */
	{"TQA", 0}, /* TQA */
	{"TQT", 0}, /* TQT */
	{"TQa", 0}, /* TQa */
	{"TQt", 0}, /* TQt */
	{"TRA", 0}, /* TRA */
	{"TRC", 0}, /* TRC */
	{"TRS", 0}, /* TRS */
	{"TRT", 0}, /* TRT */
	{"TRa", 0}, /* TRa */
	{"TRc", 0}, /* TRc */
	{"TRs", 0}, /* TRs */
	{"TRt", 0}, /* TRt */
	{"TTC", 0}, /* TTC */
	{"TTW", 0}, /* TTW */
	{"TTc", 0}, /* TTc */
	{"TTw", 0}, /* TTw */
	{"VAA", 0}, /* VAA */
	{"VAB", 0}, /* VAB */
	{"VAC", 0}, /* VAC */
	{"VAD", 0}, /* VAD */
	{"VAE", 0}, /* VAE */
	{"VAG", 0}, /* VAG */
	{"VAI", 0}, /* VAI */
	{"VAJ", 0}, /* VAJ */
	{"VAK", 0}, /* VAK */
	{"VAL", 0}, /* VAL */
	{"VAM", 0}, /* VAM */
	{"VAN", 0}, /* VAN */
	{"VAO", 0}, /* VAO */
	{"VAP", 0}, /* VAP */
	{"VAR", 0}, /* VAR */
	{"VAS", 0}, /* VAS */
	{"VAT", 0}, /* VAT */
	{"VAU", 0}, /* VAU */
	{"VAW", 0}, /* VAW */
	{"VAY", 0}, /* VAY */
	{"VAa", 0}, /* VAa */
	{"VAb", 0}, /* VAb */
	{"VAc", 0}, /* VAc */
	{"VAd", 0}, /* VAd */
	{"VAe", 0}, /* VAe */
	{"VAg", 0}, /* VAg */
	{"VAi", 0}, /* VAi */
	{"VAj", 0}, /* VAj */
	{"VAk", 0}, /* VAk */
	{"VAl", 0}, /* VAl */
	{"VAm", 0}, /* VAm */
	{"VAn", 0}, /* VAn */
	{"VAo", 0}, /* VAo */
	{"VAp", 0}, /* VAp */
	{"VAr", 0}, /* VAr */
	{"VAs", 0}, /* VAs */
	{"VAt", 0}, /* VAt */
	{"VAu", 0}, /* VAu */
	{"VAw", 0}, /* VAw */
	{"VAy", 0}, /* VAy */
	{"VHA", 0}, /* VHA */
	{"VHD", 0}, /* VHD */
	{"VHW", 0}, /* VHW */
	{"VHa", 0}, /* VHa */
	{"VHd", 0}, /* VHd */
	{"VHw", 0}, /* VHw */
	{"VMA", 0}, /* VMA */
	{"VMF", 0}, /* VMF */
	{"VMa", 0}, /* VMa */
	{"VMf", 0}, /* VMf */
	{"VPa", 0}, /* VPa */
	{"VPp", 0}, /* VPp */
	{"VPr", 0}, /* VPr */
	{"VS@", 0}, /* VS@ */
	{"VSN", 0}, /* VSN */
	{"VS[", 0}, /* VS[ */
	{"VS]", 0}, /* VS] */
	{"VSf", 0}, /* VSf */
	{"VSh", 0}, /* VSh */
	{"VSn", 0}, /* VSn */
	{"VSr", 0}, /* VSr */
	{"VSs", 0}, /* VSs */
	{"VTC", 8}, /* VTC(u32 taskid, u32 typeid) */
	{"VTc", 8}, /* VTc(u32 taskid, u32 typeid) */
	{"VTe", 8}, /* VTe(u32 taskid, u32 bodyid) */
	{"VTp", 8}, /* VTp(u32 taskid, u32 bodyid) */
	{"VTr", 8}, /* VTr(u32 taskid, u32 bodyid) */
	{"VTx", 8}, /* VTx(u32 taskid, u32 bodyid) */
	{"VU[", 0}, /* VU[ */
	{"VU]", 0}, /* VU] */
	{"VWC", OVNI_EV_JUMBO_SIG}, /* VWC+(i64 value) */
	{"VYc", OVNI_EV_JUMBO_SIG}, /* VYc+(u32 typeid, str label) */
};

const ovni_evspec *ovni_event_find(const uint8_t mcv[3])
{
	size_t lo = 0, hi = sizeof table / sizeof table[0];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = memcmp(mcv, table[mid].mcv, 3);
		if (c == 0) return &table[mid];
		if (c < 0) hi = mid;
		else lo = mid + 1;
	}
	return NULL;
}

size_t ovni_event_count(void) { return sizeof table / sizeof table[0]; }

const ovni_evspec *ovni_event_at(size_t i) { return i < ovni_event_count() ? &table[i] : NULL; }

/* Model letters in the emulator's probing order. */
const ovni_model ovni_models[OVNI_NMODELS] = {
	{'6', "nanos6", 1, 1, 0}, {'D', "nodes", 1, 0, 0},  {'K', "kernel", 1, 0, 0}, {'M', "mpi", 1, 0, 0},
	{'O', "ovni", 1, 1, 0},   {'P', "openmp", 1, 2, 1}, {'T', "tampi", 1, 0, 0},  {'V', "nosv", 2, 7, 0},
};

int ovni_model_by_letter(uint8_t c)
{
	/* Called for every event: a switch, not a scan. Same order as ovni_models. */
	switch (c) {
	case '6': return 0;
	case 'D': return 1;
	case 'K': return 2;
	case 'M': return 3;
	case 'O': return 4;
	case 'P': return 5;
	case 'T': return 6;
	case 'V': return 7;
	default: return -1;
	}
}

int ovni_model_by_name(const char *name)
{
	for (int i = 0; i < OVNI_NMODELS; i++)
		if (strcmp(ovni_models[i].name, name) == 0) return i;
	return -1;
}
