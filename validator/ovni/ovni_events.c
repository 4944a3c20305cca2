/* The ovni 1.14 event table: every MCV the emulator knows and the payload
 * its signature declares. Written by hand from
 * ../shared/specs/ovni-events-1.14.md (365 events); keep sorted by MCV bytes
 * (the lookup is a binary search). `payload` is the byte size of the normal
 * payload (0, 4, 8, 12 or 16), or OVNI_EV_JUMBO_SIG for `+` events whose
 * arguments travel as jumbo data; `args` the signature's argument types
 * and names (the 28 events that have arguments). */
#include "ovni_events.h"

#include <string.h>

static const ovni_evspec table[] = {
	{"6BB", 0, NULL}, /* 6BB */
	{"6BF", 0, NULL}, /* 6BF */
	{"6BU", 0, NULL}, /* 6BU */
	{"6BW", 0, NULL}, /* 6BW */
	{"6Bb", 0, NULL}, /* 6Bb */
	{"6Bf", 0, NULL}, /* 6Bf */
	{"6Bu", 0, NULL}, /* 6Bu */
	{"6Bw", 0, NULL}, /* 6Bw */
	{"6C[", 0, NULL}, /* 6C[ */
	{"6C]", 0, NULL}, /* 6C] */
	{"6DR", 0, NULL}, /* 6DR */
	{"6DU", 0, NULL}, /* 6DU */
	{"6Dr", 0, NULL}, /* 6Dr */
	{"6Du", 0, NULL}, /* 6Du */
	{"6F[", 0, NULL}, /* 6F[ */
	{"6F]", 0, NULL}, /* 6F] */
	{"6HE", 0, NULL}, /* 6HE */
	{"6HL", 0, NULL}, /* 6HL */
	{"6HM", 0, NULL}, /* 6HM */
	{"6HW", 0, NULL}, /* 6HW */
	{"6He", 0, NULL}, /* 6He */
	{"6Hl", 0, NULL}, /* 6Hl */
	{"6Hm", 0, NULL}, /* 6Hm */
	{"6Hw", 0, NULL}, /* 6Hw */
	{"6MA", 0, NULL}, /* 6MA */
	{"6MF", 0, NULL}, /* 6MF */
	{"6Ma", 0, NULL}, /* 6Ma */
	{"6Mf", 0, NULL}, /* 6Mf */
	{"6O[", 0, NULL}, /* 6O[ */
	{"6O]", 0, NULL}, /* 6O] */
	{"6Pa", 0, NULL}, /* 6Pa */
	{"6Pp", 0, NULL}, /* 6Pp */
	{"6Pr", 0, NULL}, /* 6Pr */
	{"6S@", 0, NULL}, /* 6S@ */
	{"6SA", 0, NULL}, /* 6SA */
	{"6SP", 0, NULL}, /* 6SP */
	{"6S[", 0, NULL}, /* 6S[ */
	{"6S]", 0, NULL}, /* 6S] */
	{"6Sa", 0, NULL}, /* 6Sa */
	{"6Sp", 0, NULL}, /* 6Sp */
	{"6Sr", 0, NULL}, /* 6Sr */
	{"6Ss", 0, NULL}, /* 6Ss */
	{"6Tc", 8, "u32 taskid, u32 typeid"}, /* 6Tc(u32 taskid, u32 typeid) */
	{"6Te", 4, "u32 taskid"}, /* 6Te(u32 taskid) */
	{"6Tp", 4, "u32 taskid"}, /* 6Tp(u32 taskid) */
	{"6Tr", 4, "u32 taskid"}, /* 6Tr(u32 taskid) */
	{"6Tx", 4, "u32 taskid"}, /* 6Tx(u32 taskid) */
	{"6U[", 0, NULL}, /* 6U[ */
	{"6U]", 0, NULL}, /* 6U] */
	{"6W*", 0, NULL}, /* 6W* */
	{"6WG", 0, NULL}, /* 6WG */
	{"6WM", 0, NULL}, /* 6WM */
	{"6WR", 0, NULL}, /* 6WR */
	{"6WS", 0, NULL}, /* 6WS */
	{"6WT", 0, NULL}, /* 6WT */
	{"6WW", 0, NULL}, /* 6WW */
	{"6W[", 0, NULL}, /* 6W[ */
	{"6W]", 0, NULL}, /* 6W] */
	{"6Wg", 0, NULL}, /* 6Wg */
	{"6Wm", 0, NULL}, /* 6Wm */
	{"6Wr", 0, NULL}, /* 6Wr */
	{"6Ws", 0, NULL}, /* 6Ws */
	{"6Wt", 0, NULL}, /* 6Wt */
	{"6Ww", 0, NULL}, /* 6Ww */
	{"6Yc", OVNI_EV_JUMBO_SIG, "u32 typeid, str label"}, /* 6Yc+(u32 typeid, str label) */
	{"6t[", 0, NULL}, /* 6t[ */
	{"6t]", 0, NULL}, /* 6t] */
	{"DC[", 0, NULL}, /* DC[ */
	{"DC]", 0, NULL}, /* DC] */
	{"DI[", 0, NULL}, /* DI[ */
	{"DI]", 0, NULL}, /* DI] */
	{"DP[", 0, NULL}, /* DP[ */
	{"DP]", 0, NULL}, /* DP] */
	{"DR[", 0, NULL}, /* DR[ */
	{"DR]", 0, NULL}, /* DR] */
	{"DS[", 0, NULL}, /* DS[ */
	{"DS]", 0, NULL}, /* DS] */
	{"DT[", 0, NULL}, /* DT[ */
	{"DT]", 0, NULL}, /* DT] */
	{"DU[", 0, NULL}, /* DU[ */
	{"DU]", 0, NULL}, /* DU] */
	{"DW[", 0, NULL}, /* DW[ */
	{"DW]", 0, NULL}, /* DW] */
	{"KCI", 0, NULL}, /* KCI */
	{"KCO", 0, NULL}, /* KCO */
	{"MAA", 0, NULL}, /* MAA */
	{"MAG", 0, NULL}, /* MAG */
	{"MAR", 0, NULL}, /* MAR */
	{"MAa", 0, NULL}, /* MAa */
	{"MAg", 0, NULL}, /* MAg */
	{"MAr", 0, NULL}, /* MAr */
	{"MCB", 0, NULL}, /* MCB */
	{"MCE", 0, NULL}, /* MCE */
	{"MCS", 0, NULL}, /* MCS */
	{"MCb", 0, NULL}, /* MCb */
	{"MCe", 0, NULL}, /* MCe */
	{"MCs", 0, NULL}, /* MCs */
	{"MDB", 0, NULL}, /* MDB */
	{"MDG", 0, NULL}, /* MDG */
	{"MDS", 0, NULL}, /* MDS */
	{"MDb", 0, NULL}, /* MDb */
	{"MDg", 0, NULL}, /* MDg */
	{"MDs", 0, NULL}, /* MDs */
	{"MEB", 0, NULL}, /* MEB */
	{"MES", 0, NULL}, /* MES */
	{"ME[", 0, NULL}, /* ME[ */
	{"ME]", 0, NULL}, /* ME] */
	{"MEb", 0, NULL}, /* MEb */
	{"MEs", 0, NULL}, /* MEs */
	{"MRO", 0, NULL}, /* MRO */
	{"MRS", 0, NULL}, /* MRS */
	{"MR[", 0, NULL}, /* MR[ */
	{"MR]", 0, NULL}, /* MR] */
	{"MRo", 0, NULL}, /* MRo */
	{"MRs", 0, NULL}, /* MRs */
	{"MSB", 0, NULL}, /* MSB */
	{"MSR", 0, NULL}, /* MSR */
	{"MSS", 0, NULL}, /* MSS */
	{"MS[", 0, NULL}, /* MS[ */
	{"MS]", 0, NULL}, /* MS] */
	{"MSb", 0, NULL}, /* MSb */
	{"MSr", 0, NULL}, /* MSr */
	{"MSs", 0, NULL}, /* MSs */
	{"MTA", 0, NULL}, /* MTA */
	{"MTS", 0, NULL}, /* MTS */
	{"MTY", 0, NULL}, /* MTY */
	{"MT[", 0, NULL}, /* MT[ */
	{"MT]", 0, NULL}, /* MT] */
	{"MTa", 0, NULL}, /* MTa */
	{"MTs", 0, NULL}, /* MTs */
	{"MTy", 0, NULL}, /* MTy */
	{"MUF", 0, NULL}, /* MUF */
	{"MUI", 0, NULL}, /* MUI */
	{"MUT", 0, NULL}, /* MUT */
	{"MUf", 0, NULL}, /* MUf */
	{"MUi", 0, NULL}, /* MUi */
	{"MUt", 0, NULL}, /* MUt */
	{"MWA", 0, NULL}, /* MWA */
	{"MWS", 0, NULL}, /* MWS */
	{"MWY", 0, NULL}, /* MWY */
	{"MW[", 0, NULL}, /* MW[ */
	{"MW]", 0, NULL}, /* MW] */
	{"MWa", 0, NULL}, /* MWa */
	{"MWs", 0, NULL}, /* MWs */
	{"MWy", 0, NULL}, /* MWy */
	{"MaA", 0, NULL}, /* MaA */
	{"MaG", 0, NULL}, /* MaG */
	{"MaR", 0, NULL}, /* MaR */
	{"Maa", 0, NULL}, /* Maa */
	{"Mag", 0, NULL}, /* Mag */
	{"Mar", 0, NULL}, /* Mar */
	{"McB", 0, NULL}, /* McB */
	{"McE", 0, NULL}, /* McE */
	{"McS", 0, NULL}, /* McS */
	{"Mcb", 0, NULL}, /* Mcb */
	{"Mce", 0, NULL}, /* Mce */
	{"Mcs", 0, NULL}, /* Mcs */
	{"MdB", 0, NULL}, /* MdB */
	{"MdG", 0, NULL}, /* MdG */
	{"MdS", 0, NULL}, /* MdS */
	{"Mdb", 0, NULL}, /* Mdb */
	{"Mdg", 0, NULL}, /* Mdg */
	{"Mds", 0, NULL}, /* Mds */
	{"MeB", 0, NULL}, /* MeB */
	{"MeS", 0, NULL}, /* MeS */
	{"Me[", 0, NULL}, /* Me[ */
	{"Me]", 0, NULL}, /* Me] */
	{"Meb", 0, NULL}, /* Meb */
	{"Mes", 0, NULL}, /* Mes */
	{"MrO", 0, NULL}, /* MrO */
	{"MrS", 0, NULL}, /* MrS */
	{"Mr[", 0, NULL}, /* Mr[ */
	{"Mr]", 0, NULL}, /* Mr] */
	{"Mro", 0, NULL}, /* Mro */
	{"Mrs", 0, NULL}, /* Mrs */
	{"MsB", 0, NULL}, /* MsB */
	{"MsR", 0, NULL}, /* MsR */
	{"MsS", 0, NULL}, /* MsS */
	{"Ms[", 0, NULL}, /* Ms[ */
	{"Ms]", 0, NULL}, /* Ms] */
	{"Msb", 0, NULL}, /* Msb */
	{"Msr", 0, NULL}, /* Msr */
	{"Mss", 0, NULL}, /* Mss */
	{"OAr", 8, "i32 cpu, i32 tid"}, /* OAr(i32 cpu, i32 tid) */
	{"OAs", 4, "i32 cpu"}, /* OAs(i32 cpu) */
	{"OB.", 0, NULL}, /* OB. */
	{"OCn", 4, "i32 cpu"}, /* OCn(i32 cpu) */
	{"OF[", 0, NULL}, /* OF[ */
	{"OF]", 0, NULL}, /* OF] */
	{"OHC", 12, "i32 cpu, u64 tag"}, /* OHC(i32 cpu, u64 tag) */
	{"OHc", 0, NULL}, /* OHc */
	{"OHe", 0, NULL}, /* OHe */
	{"OHp", 0, NULL}, /* OHp */
	{"OHr", 0, NULL}, /* OHr */
	{"OHw", 0, NULL}, /* OHw */
	{"OHx", 16, "i32 cpu, i32 tid, u64 tag"}, /* OHx(i32 cpu, i32 tid, u64 tag) */
	{"OM=", 12, "i64 value, i32 type"}, /* OM=(i64 value, i32 type) */
	{"OM[", 12, "i64 value, i32 type"}, /* OM[(i64 value, i32 type) */
	{"OM]", 12, "i64 value, i32 type"}, /* OM](i64 value, i32 type) */
	{"OU[", 0, NULL}, /* OU[ */
	{"OU]", 0, NULL}, /* OU] */
	{"PA[", 0, NULL}, /* PA[ */
	{"PA]", 0, NULL}, /* PA] */
	{"PBB", 0, NULL}, /* PBB */
	{"PBF", 0, NULL}, /* PBF */
	{"PBJ", 0, NULL}, /* PBJ */
	{"PBS", 0, NULL}, /* PBS */
	{"PBT", 0, NULL}, /* PBT */
	{"PBb", 0, NULL}, /* PBb */
	{"PBf", 0, NULL}, /* PBf */
	{"PBj", 0, NULL}, /* PBj */
	{"PBs", 0, NULL}, /* PBs */
	{"PBt", 0, NULL}, /* PBt */
	{"PCF", 0, NULL}, /* PCF */
	{"PCI", 0, NULL}, /* PCI */
	{"PCf", 0, NULL}, /* PCf */
	{"PCi", 0, NULL}, /* PCi */
	{"PH[", 0, NULL}, /* PH[ */
	{"PH]", 0, NULL}, /* PH] */
	{"PIA", 0, NULL}, /* PIA */
	{"PIR", 0, NULL}, /* PIR */
	{"PI[", 0, NULL}, /* PI[ */
	{"PI]", 0, NULL}, /* PI] */
	{"PIa", 0, NULL}, /* PIa */
	{"PIr", 0, NULL}, /* PIr */
	{"PMI", 0, NULL}, /* PMI */
	{"PMU", 0, NULL}, /* PMU */
	{"PMi", 0, NULL}, /* PMi */
	{"PMu", 0, NULL}, /* PMu */
	{"POc", OVNI_EV_JUMBO_SIG, "u32 typeid, str label"}, /* POc+(u32 typeid, str label) */
	{"PPc", 8, "u32 taskid, u32 typeid"}, /* PPc(u32 taskid, u32 typeid) */
	{"PPe", 4, "u32 taskid"}, /* PPe(u32 taskid) */
	{"PPx", 4, "u32 taskid"}, /* PPx(u32 taskid) */
	{"PQe", 4, "u32 typeid"}, /* PQe(u32 typeid) */
	{"PQx", 4, "u32 typeid"}, /* PQx(u32 typeid) */
	{"PTA", 0, NULL}, /* PTA */
	{"PTC", 0, NULL}, /* PTC */
	{"PTD", 0, NULL}, /* PTD */
	{"PTG", 0, NULL}, /* PTG */
	{"PTI", 0, NULL}, /* PTI */
	{"PTR", 0, NULL}, /* PTR */
	{"PTS", 0, NULL}, /* PTS */
	{"PTT", 0, NULL}, /* PTT */
	{"PTW", 0, NULL}, /* PTW */
	{"PTY", 0, NULL}, /* PTY */
	{"PT[", 0, NULL}, /* PT[ */
	{"PT]", 0, NULL}, /* PT] */
	{"PTa", 0, NULL}, /* PTa */
	{"PTc", 0, NULL}, /* PTc */
	{"PTd", 0, NULL}, /* PTd */
	{"PTg", 0, NULL}, /* PTg */
	{"PTi", 0, NULL}, /* PTi */
	{"PTr", 0, NULL}, /* PTr */
	{"PTs", 0, NULL}, /* PTs */
	{"PTt", 0, NULL}, /* PTt */
	{"PTw", 0, NULL}, /* PTw */
	{"PTy", 0, NULL}, /* PTy */
	{"PWC", 0, NULL}, /* PWC */
	{"PWD", 0, NULL}, /* PWD */
	{"PWE", 0, NULL}, /* PWE */
	{"PWI", 0, NULL}, /* PWI */
	{"PWS", 0, NULL}, /* PWS */
	{"PWY", 0, NULL}, /* PWY */
	{"PWc", 0, NULL}, /* PWc */
	{"PWd", 0, NULL}, /* PWd */
	{"PWe", 0, NULL}, /* PWe */
	{"PWi", 0, NULL}, /* PWi */
	{"PWs", 0, NULL}, /* PWs */
	{"PWy", 0, NULL}, /* PWy */
	{"TCI", 0, NULL}, /* TCI */
	{"TCi", 0, NULL}, /* TCi */
	{"TGC", 0, NULL}, /* TGC */
	{"TGc", 0, NULL}, /* TGc */
	{"TLI", 0, NULL}, /* TLI */
	{"TLP", 0, NULL}, /* TLP */
	{"TLi", 0, NULL}, /* TLi */
	{"TLp", 0, NULL}, /* TLp */
	{"TQA", 0, NULL}, /* TQA */
	{"TQT", 0, NULL}, /* TQT */
	{"TQa", 0, NULL}, /* TQa */
	{"TQt", 0, NULL}, /* TQt */
	{"TRA", 0, NULL}, /* TRA */
	{"TRC", 0, NULL}, /* TRC */
	{"TRS", 0, NULL}, /* TRS */
	{"TRT", 0, NULL}, /* TRT */
	{"TRa", 0, NULL}, /* TRa */
	{"TRc", 0, NULL}, /* TRc */
	{"TRs", 0, NULL}, /* TRs */
	{"TRt", 0, NULL}, /* TRt */
	{"TTC", 0, NULL}, /* TTC */
	{"TTW", 0, NULL}, /* TTW */
	{"TTc", 0, NULL}, /* TTc */
	{"TTw", 0, NULL}, /* TTw */
	{"VAA", 0, NULL}, /* VAA */
	{"VAB", 0, NULL}, /* VAB */
	{"VAC", 0, NULL}, /* VAC */
	{"VAD", 0, NULL}, /* VAD */
	{"VAE", 0, NULL}, /* VAE */
	{"VAG", 0, NULL}, /* VAG */
	{"VAI", 0, NULL}, /* VAI */
	{"VAJ", 0, NULL}, /* VAJ */
	{"VAK", 0, NULL}, /* VAK */
	{"VAL", 0, NULL}, /* VAL */
	{"VAM", 0, NULL}, /* VAM */
	{"VAN", 0, NULL}, /* VAN */
	{"VAO", 0, NULL}, /* VAO */
	{"VAP", 0, NULL}, /* VAP */
	{"VAR", 0, NULL}, /* VAR */
	{"VAS", 0, NULL}, /* VAS */
	{"VAT", 0, NULL}, /* VAT */
	{"VAU", 0, NULL}, /* VAU */
	{"VAW", 0, NULL}, /* VAW */
	{"VAY", 0, NULL}, /* VAY */
	{"VAa", 0, NULL}, /* VAa */
	{"VAb", 0, NULL}, /* VAb */
	{"VAc", 0, NULL}, /* VAc */
	{"VAd", 0, NULL}, /* VAd */
	{"VAe", 0, NULL}, /* VAe */
	{"VAg", 0, NULL}, /* VAg */
	{"VAi", 0, NULL}, /* VAi */
	{"VAj", 0, NULL}, /* VAj */
	{"VAk", 0, NULL}, /* VAk */
	{"VAl", 0, NULL}, /* VAl */
	{"VAm", 0, NULL}, /* VAm */
	{"VAn", 0, NULL}, /* VAn */
	{"VAo", 0, NULL}, /* VAo */
	{"VAp", 0, NULL}, /* VAp */
	{"VAr", 0, NULL}, /* VAr */
	{"VAs", 0, NULL}, /* VAs */
	{"VAt", 0, NULL}, /* VAt */
	{"VAu", 0, NULL}, /* VAu */
	{"VAw", 0, NULL}, /* VAw */
	{"VAy", 0, NULL}, /* VAy */
	{"VHA", 0, NULL}, /* VHA */
	{"VHD", 0, NULL}, /* VHD */
	{"VHW", 0, NULL}, /* VHW */
	{"VHa", 0, NULL}, /* VHa */
	{"VHd", 0, NULL}, /* VHd */
	{"VHw", 0, NULL}, /* VHw */
	{"VMA", 0, NULL}, /* VMA */
	{"VMF", 0, NULL}, /* VMF */
	{"VMa", 0, NULL}, /* VMa */
	{"VMf", 0, NULL}, /* VMf */
	{"VPa", 0, NULL}, /* VPa */
	{"VPp", 0, NULL}, /* VPp */
	{"VPr", 0, NULL}, /* VPr */
	{"VS@", 0, NULL}, /* VS@ */
	{"VSN", 0, NULL}, /* VSN */
	{"VS[", 0, NULL}, /* VS[ */
	{"VS]", 0, NULL}, /* VS] */
	{"VSf", 0, NULL}, /* VSf */
	{"VSh", 0, NULL}, /* VSh */
	{"VSn", 0, NULL}, /* VSn */
	{"VSr", 0, NULL}, /* VSr */
	{"VSs", 0, NULL}, /* VSs */
	{"VTC", 8, "u32 taskid, u32 typeid"}, /* VTC(u32 taskid, u32 typeid) */
	{"VTc", 8, "u32 taskid, u32 typeid"}, /* VTc(u32 taskid, u32 typeid) */
	{"VTe", 8, "u32 taskid, u32 bodyid"}, /* VTe(u32 taskid, u32 bodyid) */
	{"VTp", 8, "u32 taskid, u32 bodyid"}, /* VTp(u32 taskid, u32 bodyid) */
	{"VTr", 8, "u32 taskid, u32 bodyid"}, /* VTr(u32 taskid, u32 bodyid) */
	{"VTx", 8, "u32 taskid, u32 bodyid"}, /* VTx(u32 taskid, u32 bodyid) */
	{"VU[", 0, NULL}, /* VU[ */
	{"VU]", 0, NULL}, /* VU] */
	{"VWC", OVNI_EV_JUMBO_SIG, "i64 value"}, /* VWC+(i64 value) */
	{"VYc", OVNI_EV_JUMBO_SIG, "u32 typeid, str label"}, /* VYc+(u32 typeid, str label) */
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

bool ovni_arg_next(const char **cur, ovni_arg *a)
{
	const char *p = *cur;
	if (!p) return false;
	while (*p == ',' || *p == ' ') p++;
	if (!*p) return false;
	const char *sp = strchr(p, ' ');
	if (!sp) return false;
	size_t tl = (size_t)(sp - p);
	a->is_signed = p[0] == 'i';
	a->size = tl == 3 && strncmp(p, "str", 3) == 0 ? 0 : tl == 3 && p[1] == '6' ? 8 : 4;
	p = sp + 1;
	size_t nl = strcspn(p, ",");
	if (nl >= sizeof a->name) nl = sizeof a->name - 1;
	memcpy(a->name, p, nl);
	a->name[nl] = '\0';
	*cur = p + strcspn(p, ",");
	return true;
}
